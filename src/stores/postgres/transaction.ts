// Running one batch of queued `transact` callbacks on the writer connection: one BEGIN ..
// COMMIT for the batch, each callback in its own SAVEPOINT when there are several (a callback
// that throws rolls back only its own writes), and no promise settled before the COMMIT (or
// ROLLBACK) that decided it. A callback starts as soon as its turn comes, without waiting for
// BEGIN or its SAVEPOINT to come back: its first statement waits for BEGIN (and fails, unsent, if
// it did) and is queued behind the SAVEPOINT. The savepoints cost one round trip a callback
// after the first: the first is opened with BEGIN, each next one is released and opened again
// in one query (`RELEASE SAVEPOINT unit; SAVEPOINT unit`, not waited for), ROLLBACK TO keeps the
// savepoint of a callback that failed for the next, and COMMIT ends the last without a RELEASE.
// The callbacks of one batch share what they read of `runs` (run-cache.ts): the batch holds the
// schema's write lock from BEGIN on, so no other server changes a row under it.
// Also the two `Db`s: the read pool, and a transaction's connection that refuses to run
// anything once its callback has finished.
import type pg from "pg";
import type { QueuedTransaction as QueuedUnit } from "../transaction-queue.ts";
import { BATCH_START, BatchIds, type BatchStart, tasksSequenceText } from "./batch-ids.ts";
import { RunCache } from "./run-cache.ts";
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

/** What the units of one batch share. */
interface BatchState {
  readonly client: pg.PoolClient;
  readonly schema: string;
  /** BEGIN, sent but maybe not answered yet. */
  readonly begin: Promise<unknown>;
  /** Several units: each in its own savepoint. */
  readonly shared: boolean;
  /** The savepoint queries sent and not waited for. */
  readonly sent: Promise<unknown>[];
  readonly runs: RunCache;
  /** The event and task ids the batch hands out (batch-ids.ts). */
  readonly ids: BatchIds;
}

async function runUnit(state: BatchState, unit: QueuedUnit, savepoint: Promise<unknown> | null) {
  const db = new TxDb(state.client, state.begin);
  const writer = new PgWriter(db, state.schema, state.runs, state.ids);
  const ids = state.ids.mark();
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await unit.fn(writer) };
    await writer.flush();
  } catch (error) {
    outcome = { ok: false, error };
  }
  db.end();
  await db.settled();
  // A write the callback did not wait for failed: that failure is the unit's (what failed
  // after it was PostgreSQL refusing statements in the aborted transaction).
  if (db.writeFailed !== null) outcome = { ok: false, error: db.writeFailed.error };
  await Promise.all([state.begin, savepoint]); // BEGIN or SAVEPOINT failed: the whole batch fails
  // A callback that caught a failed statement and went on cannot commit: PostgreSQL aborted it.
  if (outcome.ok && db.failed !== null) outcome = { ok: false, error: db.failed.error };
  if (state.shared && !outcome.ok) {
    // Back to the savepoint, which stays open for the next unit; what the unit read is gone.
    state.runs.clear();
    await state.ids.reset(ids);
    await state.client.query("ROLLBACK TO SAVEPOINT unit");
  }
  const result: UnitOutcome = { ...outcome, lastEventId: outcome.ok ? writer.storedUpTo : 0 };
  return result;
}

/**
 * BEGIN and the schema's write lock, in one round trip: every transaction of every server on
 * the schema holds it until it ends, so transactions are serialized across servers as the
 * writer connection serializes them within one (the schema name is checked: letters, digits, _).
 * Then, under the lock, what the batch hands out ids and positions from (batch-ids.ts); with several
 * units, the first unit's savepoint too.
 */
function beginText(schema: string, shared: boolean): string {
  const lock = `BEGIN; SELECT pg_advisory_xact_lock(hashtext('yardmaster:${schema}:write')); ${BATCH_START}`;
  return shared ? `${lock}; SAVEPOINT unit` : lock;
}

/** What BEGIN's reads answered (the third of its statements' results). */
async function batchStart(begin: Promise<unknown>): Promise<BatchStart> {
  const results = (await begin) as pg.QueryResult[];
  const row = results[2].rows[0];
  return { events: Number(row.events), tasks: Number(row.tasks), positions: row.positions };
}

/**
 * COMMIT, after moving the tasks sequence past the ids the batch handed out (in the same round
 * trip); answers the COMMIT's result.
 */
async function commit(client: pg.PoolClient, ids: BatchIds): Promise<pg.QueryResult> {
  if (ids.lastTask === 0) return client.query("COMMIT");
  const results = (await client.query(
    `${tasksSequenceText(ids.lastTask)}; COMMIT`,
  )) as unknown as pg.QueryResult[];
  return results[1];
}

/** BEGIN, every unit, then COMMIT (or ROLLBACK for a lone unit that failed). */
async function runAll(
  client: pg.PoolClient,
  batch: QueuedUnit[],
  outcomes: UnitOutcome[],
  schema: string,
) {
  const shared = batch.length > 1;
  const begin = sent(client.query(beginText(schema, shared)));
  const ids = new BatchIds(sent(batchStart(begin)) as Promise<BatchStart>);
  const state: BatchState = { client, schema, begin, shared, sent: [], runs: new RunCache(), ids };
  for (const [i, unit] of batch.entries()) {
    // The savepoint of the unit before is released and a fresh one opened, in one round trip
    // (not waited for: one that failed leaves the transaction aborted, so COMMIT answers
    // ROLLBACK and the whole batch fails). After a unit that failed, its savepoint is reused.
    let savepoint: Promise<unknown> | null = null;
    if (i > 0 && outcomes[i - 1].ok) {
      savepoint = sent(client.query("RELEASE SAVEPOINT unit; SAVEPOINT unit"));
      state.sent.push(savepoint);
    }
    outcomes.push(await runUnit(state, unit, savepoint));
  }
  const end = !shared && !outcomes[0].ok ? "ROLLBACK" : "COMMIT";
  const done = end === "COMMIT" ? await commit(client, ids) : await client.query(end);
  await Promise.all(state.sent);
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
