// Writes a unit sends no answer back for (a run's `updated`, stale requests), held back instead
// of sent: each statement is a round trip on the one writer connection, so a held write rides
// along in a later statement as a data-modifying CTE (the unit's event append, events.ts), or is
// sent just before the first statement that reads or writes its table (`flush`). Statements of
// one transaction run in order, so what a later statement sees is as if it had been sent at once:
// nothing between the hold and its sending looks at its table. Held writes never outlive their
// unit: its end sends them (transaction.ts).
import { type Db, type Statement, sql } from "./sql.ts";

/** The tables a writer's statement may name (deferred writes are on the first two). */
export type Table = "runs" | "requests" | "tasks" | "arrivals";

export interface Deferred {
  /** The table it writes: statements on other tables may go before it. */
  readonly table: "runs" | "requests";
  /** One data-modifying statement without RETURNING, parameters $1..$n. */
  readonly text: string;
  readonly values: readonly unknown[];
}

export class DeferredWrites {
  #held: Deferred[] = [];

  constructor(private readonly raw: Db) {}

  /** Holds `write`; one already held on its table is sent first (one CTE a table a statement). */
  async add(write: Deferred): Promise<void> {
    if (this.#held.some((d) => d.table === write.table)) await this.flush([write.table]);
    this.#held.push(write);
  }

  /** Hands over everything held, to be sent in the caller's statement. */
  take(): Deferred[] {
    const held = this.#held;
    this.#held = [];
    return held;
  }

  /** Sends the held writes on `tables` (every one when empty), in the order they were held. */
  async flush(tables: readonly Table[]): Promise<void> {
    if (this.#held.length === 0) return;
    const all = tables.length === 0;
    const send = this.#held.filter((d) => all || tables.includes(d.table));
    if (send.length === 0) return;
    this.#held = this.#held.filter((d) => !send.includes(d));
    // Sent, not waited for: a failure is the unit's (transaction.ts), the next statement queues
    // behind them.
    for (const d of send) await this.raw.write(sql(d.text), d.values);
  }

  /** The connection for statements that may read anything: everything held goes first. */
  flushingDb(): Db {
    return {
      run: async (statement: Statement, values?: readonly unknown[]) => {
        await this.flush([]);
        return this.raw.run(statement, values);
      },
      write: async (statement: Statement, values?: readonly unknown[]) => {
        await this.flush([]);
        return this.raw.write(statement, values);
      },
    };
  }
}

/** A connection that counts the statements sent through it. */
export class CountingDb implements Db {
  sent = 0;

  constructor(private readonly db: Db) {}

  run(statement: Statement, values?: readonly unknown[]) {
    this.sent += 1;
    return this.db.run(statement, values);
  }

  write(statement: Statement, values?: readonly unknown[]) {
    this.sent += 1;
    return this.db.write(statement, values);
  }
}
