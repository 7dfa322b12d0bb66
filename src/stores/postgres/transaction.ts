// Running one batch of queued `transact` callbacks on the writer connection: one BEGIN ..
// COMMIT for the batch, each callback in its own SAVEPOINT when there are several (a callback
// that throws rolls back only its own writes), and no promise settled before the COMMIT (or
// ROLLBACK) that decided it. A callback starts as soon as its turn comes, without waiting for
// BEGIN or SAVEPOINT to come back: its first statement waits for BEGIN (and fails, unsent, if
// it did) and is queued behind the SAVEPOINT, and RELEASE SAVEPOINT is not waited for either,
// so queued callbacks run back to back with no round trip of their own in between.
// Also the two `Db`s: the read pool, and a transaction's connection that refuses to run
// anything once its callback has finished.
import type pg from "pg";
import type { QueuedTransaction as QueuedUnit } from "../transaction-queue.ts";
import type { Db, Statement } from "./sql.ts";
import { PgWriter } from "./writer.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function poolDb(pool: pg.Pool): Db {
  return {
    async run(statement: Statement, values: readonly unknown[] = []) {
      const result = await pool.query({ ...statement, values: [...values] });
      return { rows: result.rows, count: result.rowCount ?? 0 };
    },
    async write(statement: Statement, values: readonly unknown[] = []) {
      await pool.query({ ...statement, values: [...values] });
    },
  };
}

/** One callback's view of the transaction's connection. */
class TxDb implements Db {
  #live = true;
  /** The first statement that failed: PostgreSQL aborts the (sub)transaction then. */
  failed: { error: unknown } | null = null;
  /** The first `write` that failed (the callback never saw its failure). */
  writeFailed: { error: unknown } | null = null;
  readonly #writes: Promise<void>[] = [];

  constructor(
    private readonly client: pg.PoolClient,
    /** BEGIN, sent but maybe not answered yet. */
    private readonly ready: Promise<unknown>,
  ) {}

  end(): void {
    this.#live = false;
  }

  async run(statement: Statement, values: readonly unknown[] = []) {
    if (!this.#live) throw new Error("store: transaction already finished");
    await this.ready;
    if (!this.#live) throw new Error("store: transaction already finished");
    try {
      const result = await this.client.query({ ...statement, values: [...values] });
      return { rows: result.rows, count: result.rowCount ?? 0 };
    } catch (error) {
      this.failed ??= { error };
      throw error;
    }
  }

  async write(statement: Statement, values: readonly unknown[] = []): Promise<void> {
    if (!this.#live) throw new Error("store: transaction already finished");
    await this.ready;
    if (!this.#live) throw new Error("store: transaction already finished");
    const query = this.client.query({ ...statement, values: [...values] }).then(
      () => {},
      (error: unknown) => {
        this.failed ??= { error };
        this.writeFailed ??= { error };
      },
    );
    this.#writes.push(query);
  }

  /** Waits for the answers of the writes sent without waiting. */
  async settled(): Promise<void> {
    await Promise.all(this.#writes);
  }
}

/** A promise whose rejection is handled (awaited later), so it is never reported unhandled. */
function sent(query: Promise<unknown>): Promise<unknown> {
  query.catch(() => {});
  return query;
}

/** What a batch needs from its store: the schema (its write lock) and who hears commits. */
export interface BatchContext {
  schema: string;
  /** After a COMMIT that stored events: the highest id stored. */
  committed(lastEventId: number): void;
}

type UnitOutcome = Outcome & { lastEventId: number };

async function runUnit(
  client: pg.PoolClient,
  unit: QueuedUnit,
  shared: boolean,
  begin: Promise<unknown>,
  releases: Promise<unknown>[],
  schema: string,
): Promise<UnitOutcome> {
  // The SAVEPOINT is queued on the connection before any statement of the unit, so it runs
  // first; the statements wait only for BEGIN (answered once per batch), not for it: a
  // SAVEPOINT that failed fails them too (the transaction is aborted) and is reported below.
  const savepoint = shared ? sent(client.query("SAVEPOINT unit")) : null;
  const db = new TxDb(client, begin);
  const writer = new PgWriter(db, schema);
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await unit.fn(writer) };
  } catch (error) {
    outcome = { ok: false, error };
  }
  db.end();
  await db.settled();
  // A write the callback did not wait for failed: that failure is the unit's (what failed
  // after it was PostgreSQL refusing statements in the aborted transaction).
  if (db.writeFailed !== null) outcome = { ok: false, error: db.writeFailed.error };
  await Promise.all([begin, savepoint]); // BEGIN or SAVEPOINT failed: the whole batch fails
  // A callback that caught a failed statement and went on cannot commit: PostgreSQL aborted it.
  if (outcome.ok && db.failed !== null) outcome = { ok: false, error: db.failed.error };
  // RELEASE is not waited for: the next unit's statements queue behind it, and one that failed
  // leaves the transaction aborted, so COMMIT answers ROLLBACK and the whole batch fails.
  if (shared && outcome.ok) releases.push(sent(client.query("RELEASE SAVEPOINT unit")));
  if (shared && !outcome.ok) {
    await client.query("ROLLBACK TO SAVEPOINT unit");
    await client.query("RELEASE SAVEPOINT unit");
  }
  return { ...outcome, lastEventId: outcome.ok ? writer.storedUpTo : 0 };
}

/**
 * BEGIN and the schema's write lock, in one round trip: every transaction of every server on
 * the schema holds it until it ends, so transactions are serialized across servers as the
 * writer connection serializes them within one (the schema name is checked: letters, digits, _).
 */
function beginText(schema: string): string {
  return `BEGIN; SELECT pg_advisory_xact_lock(hashtext('yardmaster:${schema}:write'))`;
}

/** BEGIN, every unit, then COMMIT (or ROLLBACK for a lone unit that failed). */
async function runAll(
  client: pg.PoolClient,
  batch: QueuedUnit[],
  outcomes: UnitOutcome[],
  schema: string,
) {
  const shared = batch.length > 1;
  const begin = sent(client.query(beginText(schema)));
  const releases: Promise<unknown>[] = [];
  for (const unit of batch) {
    outcomes.push(await runUnit(client, unit, shared, begin, releases, schema));
  }
  const end = !shared && !outcomes[0].ok ? "ROLLBACK" : "COMMIT";
  const done = await client.query(end);
  await Promise.all(releases);
  // COMMIT of an aborted transaction answers ROLLBACK instead of failing.
  if (end === "COMMIT" && done.command !== "COMMIT") {
    throw new Error("store: the transaction was rolled back at commit");
  }
}

/** Runs a batch on the writer pool's one connection; settles every unit. */
export async function runBatch(
  pool: pg.Pool,
  batch: QueuedUnit[],
  context: BatchContext,
): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    for (const unit of batch) unit.reject(error);
    return;
  }
  const outcomes: UnitOutcome[] = [];
  let failure: { error: unknown } | null = null;
  try {
    await runAll(client, batch, outcomes, context.schema);
  } catch (error) {
    // BEGIN, a savepoint or COMMIT failed: nothing of the batch is durable.
    failure = { error };
    await client.query("ROLLBACK").catch(() => {});
  }
  // A connection whose transaction failed is closed, not reused: its state is unknown.
  client.release(failure === null ? undefined : new Error("store: batch failed"));
  if (failure === null) {
    const last = outcomes.reduce((high, o) => Math.max(high, o.lastEventId), 0);
    if (last > 0) context.committed(last);
  }
  batch.forEach((unit, i) => {
    const outcome: Outcome | undefined = outcomes[i];
    if (outcome !== undefined && !outcome.ok) unit.reject(outcome.error);
    else if (failure !== null || outcome === undefined) unit.reject(failure?.error);
    else unit.resolve(outcome.value);
  });
}
