// Writes a unit sends no answer back for (new runs and tasks, whose ids and positions the batch
// hands out, batch-ids.ts; a run's status, start and `updated`; stale requests), held back
// instead of sent: each statement costs a round trip's work on both sides of the one writer
// connection, so a held write rides along in a later statement as a data-modifying CTE (the
// unit's event append, events.ts), or goes out just before the first statement that reads or
// writes its table (`flush`), several held writes in one statement. Statements of one
// transaction run in order, so what a later statement sees is as if it had been sent at once:
// nothing between the hold and its sending looks at its table. The CTEs of one statement all see
// the rows as they were before it (one snapshot), so two held writes share a statement only when
// neither needs to see the other: a second insert of runs (each checks the list's end the one
// before it moved) joins the held one when its positions follow on (`merge`), else sends it
// ahead; new tasks are gathered into one insert, the updates of runs into one update (a row
// each), the stale requests of every attempt into one update (per source). Which statements
// must see what is held, and which need not (a task update, a claim), is the writer's
// (writer.ts). The foreign
// keys (a new task's run inserted in the same statement) are checked at the statement's end,
// when every CTE has run. Held writes never outlive their unit: its end sends them
// (transaction.ts).
import type { RequestRecord } from "../../engine/index.ts";
import { staleWrite } from "./records.ts";
import { type Db, type Statement, sql } from "./sql.ts";
import { type NewTaskRow, tasksWrite } from "./tasks.ts";

/** The tables a writer's statement may name (held writes are on any of them). */
export type Table = "runs" | "requests" | "tasks" | "arrivals";

export interface Deferred {
  /** The table it writes: statements on other tables may go before it. */
  readonly table: Table;
  /** One data-modifying statement without RETURNING, parameters $1..$n. */
  readonly text: string;
  readonly values: readonly unknown[];
  /** An insert's new rows (runs: their ids), which a held update of the table cannot see. */
  readonly inserts?: readonly string[];
  /** This write and `next` (of the same table and kind) as one, if they can be one. */
  merge?(next: Deferred): Deferred | null;
}

/** What a held update of a run sets: known values (null: left as the row has it). */
interface RunSet {
  status: string | null;
  started: boolean | null;
  updated: number;
}

/** A held run update, and what decides whether a claim must see it (`claimNeutral`). */
interface HeldRun extends RunSet {
  /** The run's status in the database (before anything held), when known. */
  base: string | null;
  /**
   * It ends the run, and the settling probe found nothing outstanding in it, no task of it
   * written since: it has no ready task, so whatever its status, a claim takes nothing of it.
   */
  quietEnd: boolean;
}

/** The statuses a claim takes tasks of (claims.ts). */
const DISPATCHING: ReadonlySet<string | null> = new Set(["queued", "running"]);

/** The run columns a held update may set: the ones a run's start, end and touch change. */
export const HELD_RUN_COLUMNS: ReadonlySet<string> = new Set(["status", "started", "updated"]);

// Every held run update of a unit as one statement, each run's row looked up by key (the
// values found by the row's place in the id array, so the plan never joins a set it cannot
// size).
const RUN_SETS = `UPDATE runs SET
  status = COALESCE(($2::text[])[array_position($1::text[], id)], status),
  started = COALESCE(($3::boolean[])[array_position($1::text[], id)], started),
  updated = ($4::bigint[])[array_position($1::text[], id)]
WHERE id = ANY($1::text[])`;

/** Held writes in the order they go into one statement (fixed, so the texts are few). */
const ORDER: ReadonlyArray<(d: Deferred) => boolean> = [
  (d) => d.table === "runs" && d.inserts !== undefined,
  (d) => d.table === "tasks",
  (d) => d.table === "runs" && d.inserts === undefined,
  (d) => d.table === "requests",
  (d) => d.table === "arrivals",
];
const rank = (d: Deferred) => ORDER.findIndex((matches) => matches(d));

/** `writes` as one statement: the first alone, or each as a CTE of a `SELECT`. */
export function combined(writes: readonly Deferred[]): { text: string; values: unknown[] } {
  if (writes.length === 1) return { text: writes[0].text, values: [...writes[0].values] };
  const { ctes, values } = asCtes(writes, 0);
  return { text: `WITH ${ctes.join(",\n")}\nSELECT 1`, values };
}

/** `writes` as CTEs `w0`, `w1` ..., their parameters numbered on from `offset`. */
export function asCtes(
  writes: readonly Deferred[],
  offset: number,
): { ctes: string[]; values: unknown[] } {
  const ctes: string[] = [];
  const values: unknown[] = [];
  for (const [i, d] of writes.entries()) {
    const at = offset + values.length;
    ctes.push(`w${i} AS (${d.text.replace(/\$(\d+)/g, (_, n) => `$${Number(n) + at}`)})`);
    values.push(...d.values);
  }
  return { ctes, values };
}

export class DeferredWrites {
  #held: Deferred[] = [];
  /** The held updates of runs, by run id, coalesced (one row version a run a statement). */
  readonly #runs = new Map<string, HeldRun>();
  /** The held new tasks, in the order they were added: one insert for all of them. */
  #tasks: NewTaskRow[] = [];
  /**
   * The tasks whose pending requests go stale, and the source they are limited to (null: any):
   * one update for all of them, so the outcomes of several attempts in one unit hold one.
   */
  #stale: { source: RequestRecord["source"] | null; ids: number[] } | null = null;

  /** The unit's end has sent what was held: a write now would be held for nobody. */
  #closed = false;

  constructor(private readonly raw: CountingDb) {}

  /** Sends what is held; what comes later is refused as the connection refuses it. */
  async close(): Promise<void> {
    await this.flush([]);
    this.#closed = true;
  }

  #open(): void {
    if (this.#closed) throw new Error("store: transaction already finished");
  }

  /**
   * Holds `write`. When one that cannot share its statement is held (the same table and kind:
   * each insert of runs checks the list's end the one before it moved), what is held goes first.
   */
  async add(write: Deferred): Promise<void> {
    this.#open();
    const clash = (d: Deferred) =>
      d.table === write.table && (d.inserts === undefined) === (write.inserts === undefined);
    const at = this.#held.findIndex(clash);
    const merged = at < 0 ? null : (this.#held[at].merge?.(write) ?? null);
    if (merged !== null) {
      this.#held[at] = merged;
      return;
    }
    if (at >= 0) await this.flush([]);
    // A held read of arrivals (the settling probe's lists) no longer holds once one is
    // written; one of tasks (whether a task is outstanding) still does.
    if (write.table === "arrivals") {
      this.raw.sent += 1;
      this.raw.quiet += 1;
    }
    this.#held.push(write);
  }

  /** Holds new tasks (ids from the batch, batch-ids.ts). */
  addTasks(rows: readonly NewTaskRow[]): void {
    this.#open();
    // (The settling reads of their runs are dropped by the writer.)
    for (const row of rows) {
      const held = this.#runs.get(row.runId);
      if (held !== undefined) held.quietEnd = false;
    }
    this.#tasks.push(...rows);
  }

  /** Whether the insert of task `id` is held. */
  holdsTask(id: number): boolean {
    return this.#tasks.some((t) => t.id === id);
  }

  /** Whether the insert of a task of run `runId` is held. */
  holdsTaskOf(runId: string): boolean {
    return this.#tasks.some((t) => t.runId === runId);
  }

  /** Holds `staleRequests(taskId, source)`. */
  async addStale(taskId: number, source?: RequestRecord["source"]): Promise<void> {
    this.#open();
    const key = source ?? null;
    if (this.#stale !== null && this.#stale.source !== key) await this.flush(["requests"]);
    if (this.#stale === null) this.#stale = { source: key, ids: [] };
    this.#stale.ids.push(taskId);
  }

  /** The held stale-requests update as one write (null: none). */
  #takeStale(): Deferred | null {
    const stale = this.#stale;
    if (stale === null) return null;
    this.#stale = null;
    return staleWrite(stale.ids, stale.source ?? undefined);
  }

  /**
   * Holds an update of run `id` to `set` (its columns' values as the row will hold them).
   * `base`: the run's status as the batch knows it before this update; `quietEnd`: `set` ends
   * the run and the settling probe found nothing outstanding, nothing written since.
   */
  async setRun(id: string, set: RunSet, base: string | null, quietEnd = false): Promise<void> {
    this.#open();
    // A run inserted by a held write is not there for an update in the same statement.
    if (this.#held.some((d) => d.table === "runs" && d.inserts?.includes(id))) {
      await this.flush(["runs"]);
    }
    // The first status held for the run is the one the database has: a touch sets none.
    const before = this.#runs.get(id);
    const known = before !== undefined && before.status !== null ? before.base : base;
    this.#runs.set(id, {
      status: set.status,
      started: set.started,
      updated: set.updated,
      base: known,
      quietEnd,
    });
  }

  /** Holds `updated = now` for these runs, on top of what is held for them. */
  async touchRuns(ids: readonly string[], now: number): Promise<void> {
    for (const id of ids) {
      const held = this.#runs.get(id);
      if (held === undefined) {
        await this.setRun(id, { status: null, started: null, updated: now }, null);
      } else held.updated = now;
    }
  }

  /**
   * Whether a claim sees the same with run `id`'s held update as without it: none is held, it
   * sets no status, it moves the run between the statuses a claim takes from, or it is a
   * quiet end.
   */
  claimNeutral(id: string): boolean {
    const held = this.#runs.get(id);
    if (held === undefined || held.status === null || held.quietEnd) return true;
    return DISPATCHING.has(held.status) && DISPATCHING.has(held.base);
  }

  /** Whether an update of run `id` is held. */
  holdsRun(id: string): boolean {
    return this.#runs.has(id);
  }

  /** Hands over everything held, to be sent in the caller's statement, in the fixed order. */
  take(): Deferred[] {
    const held = this.#held;
    this.#held = [];
    const tasks = this.#takeTasks();
    if (tasks !== null) held.push(tasks);
    const stale = this.#takeStale();
    if (stale !== null) held.push(stale);
    const runs = this.#takeRuns(() => true);
    if (runs !== null) held.push(runs);
    return held.sort((a, b) => rank(a) - rank(b));
  }

  /** The held new tasks as one write (null: none). */
  #takeTasks(): Deferred | null {
    if (this.#tasks.length === 0) return null;
    const rows = this.#tasks;
    this.#tasks = [];
    return tasksWrite(rows);
  }

  /** The held run updates `take` picks, as one write (null: none). */
  #takeRuns(take: (id: string) => boolean): Deferred | null {
    const ids = [...this.#runs.keys()].filter(take);
    if (ids.length === 0) return null;
    const sets = ids.map((id) => this.#runs.get(id)!);
    for (const id of ids) this.#runs.delete(id);
    return {
      table: "runs",
      text: RUN_SETS,
      values: [
        ids,
        sets.map((s) => s.status),
        sets.map((s) => s.started),
        sets.map((s) => s.updated),
      ],
    };
  }

  /**
   * Sends the held writes on `tables` (every one when empty) in one statement, but for the
   * run updates `keep` picks (ones a claim need not see).
   */
  async flush(tables: readonly Table[], keep?: (runId: string) => boolean): Promise<void> {
    const all = tables.length === 0;
    const on = (table: Table) => all || tables.includes(table);
    const send = this.#held.filter((d) => on(d.table));
    const tasks = on("tasks") ? this.#takeTasks() : null;
    if (tasks !== null) send.push(tasks);
    const runs = on("runs") ? this.#takeRuns((id) => keep === undefined || !keep(id)) : null;
    if (runs !== null) send.push(runs);
    const stale = on("requests") ? this.#takeStale() : null;
    if (stale !== null) send.push(stale);
    // New runs go with anything sent: a held new task may be of one of them.
    if (send.length) send.push(...this.#held.filter((d) => d.inserts?.length && !send.includes(d)));
    if (send.length) await this.#send(send.sort((a, b) => rank(a) - rank(b)));
  }

  /** Sends the held new runs (what a row of another table may refer to), if any. */
  async flushNewRuns(): Promise<void> {
    const runs = this.#held.filter((d) => d.table === "runs" && d.inserts !== undefined);
    if (runs.length) await this.#send(runs);
  }

  /** Sends `writes` (taken from what is held) as one statement, not waited for. */
  async #send(writes: readonly Deferred[]): Promise<void> {
    this.#held = this.#held.filter((d) => !writes.includes(d));
    const statement = combined(writes);
    // Not waited for: a failure is the unit's (transaction.ts), the next statement queues
    // behind it.
    await this.raw.write(sql(statement.text), statement.values);
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

/**
 * A connection that counts the statements sent through it (and the held writes of tasks and
 * arrivals), so a read kept for later knows whether anything was written since.
 */
export class CountingDb implements Db {
  sent = 0;
  /** Of those, the ones sent `quietly`: they neither read nor write tasks. */
  quiet = 0;

  constructor(private readonly db: Db) {}

  /** The statements that may have written tasks. */
  get busy(): number {
    return this.sent - this.quiet;
  }

  /** The connection under this one: for statements no held read need count. */
  uncounted(): Db {
    return this.db;
  }

  /** `db` (a connection over this one) for statements that neither read nor write tasks. */
  quietly(db: Db): Db {
    return {
      run: (statement: Statement, values?: readonly unknown[]) => {
        this.quiet += 1;
        return db.run(statement, values);
      },
      write: (statement: Statement, values?: readonly unknown[]) => {
        this.quiet += 1;
        return db.write(statement, values);
      },
    };
  }

  run(statement: Statement, values?: readonly unknown[]) {
    this.sent += 1;
    return this.db.run(statement, values);
  }

  write(statement: Statement, values?: readonly unknown[]) {
    this.sent += 1;
    return this.db.write(statement, values);
  }
}
