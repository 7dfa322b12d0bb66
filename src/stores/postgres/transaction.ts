// Running one batch of queued `transact` callbacks on the writer connection: one BEGIN ..
// COMMIT for the batch, each callback in its own SAVEPOINT when there are several (a callback
// that throws rolls back only its own writes), and no promise settled before the COMMIT (or
// ROLLBACK) that decided it. A callback starts as soon as its turn comes, without waiting for
// BEGIN or its SAVEPOINT to come back: its statements go out behind them on the connection (a
// statement behind a BEGIN that failed fails too, and the batch with it; only the ids a batch
// hands out, batch-ids.ts, wait for BEGIN's reads). The savepoints cost one round trip a callback
// after the first: the first is opened with BEGIN, each next one is released and opened again
// in one query (`RELEASE SAVEPOINT unit; SAVEPOINT unit`, not waited for), ROLLBACK TO keeps the
// savepoint of a callback that failed for the next, and COMMIT ends the last without a RELEASE.
// A batch of one unit sends its COMMIT behind the unit's writes without waiting for their
// answers: a write that fails fails that unit whole either way (the COMMIT then answers
// ROLLBACK). A batch of several waits for every answer first, so that a failed write takes back
// only its own unit and those sent behind it.
//
// Nor does a callback wait for the unit before it: the writes that unit sent and did not wait
// for (`Db.write`) are still on their way when the next unit's savepoint and statements go out
// behind them (the connection keeps their order). Such a write is guarded by values the batch
// handed out under the schema's write lock, so it fails only when something is wrong; then
// PostgreSQL has aborted the transaction, and every statement sent after it failed too (25P02),
// the savepoint statements included, so the failed unit's savepoint is still the open one. The
// batch learns it when it next waits for every answer (a unit that failed or saw a statement
// fail, and before COMMIT): it rolls back to that savepoint, rejects the failed unit with its
// own error and every unit after it with `BehindFailedUnit` (their callbacks ran on a
// transaction that was no longer there; they are not run again, as not every callback is safe
// to run twice, and the engine takes the rejection as any failed transaction), and goes on with
// the next units. A statement pg refuses to send (a value it cannot encode) aborts nothing and
// is known before the unit ends, so its unit is settled before the next savepoint goes out;
// should one ever fail later, with a later savepoint through, the savepoint to roll back to is
// gone: the whole batch fails instead.
//
// The callbacks of one batch share what they read of `runs` (run-cache.ts): the batch holds the
// schema's write lock from BEGIN on, so no other server changes a row under it.
// Also the two `Db`s: the read pool, and a transaction's connection that refuses to run
// anything once its callback has finished.
import type pg from "pg";
import type { QueuedTransaction as QueuedUnit } from "../transaction-queue.ts";
import {
  BATCH_START,
  BatchIds,
  type BatchStart,
  type IdsMark,
  tasksSequenceText,
} from "./batch-ids.ts";
import { RunCache } from "./run-cache.ts";
import { bound, type Db, type Statement } from "./sql.ts";
import { PgWriter } from "./writer.ts";

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function poolDb(pool: pg.Pool): Db {
  return {
    async run(statement: Statement, values: readonly unknown[] = []) {
      const result = await pool.query({ ...statement, values: bound(values) });
      return { rows: result.rows, count: result.rowCount ?? 0 };
    },
    async write(statement: Statement, values: readonly unknown[] = []) {
      await pool.query({ ...statement, values: bound(values) });
    },
  };
}

/** The rejection of a unit whose statements went out behind a unit whose write failed. */
export class BehindFailedUnit extends Error {
  constructor(cause: unknown) {
    super(
      "store: not applied: a unit before it in the same batch failed after this unit's statements were sent, and the batch rolled both back",
      { cause },
    );
    this.name = "BehindFailedUnit";
  }
}

/** A statement that failed: the unit that sent it (null: the batch's own), in sending order. */
interface Failure {
  seq: number;
  unit: number | null;
  error: unknown;
  /** Sent by `Db.write`: the callback never saw it fail. */
  write: boolean;
}

/**
 * The batch's connection: every statement numbered in the order it goes out, the first that
 * failed, and the answers not waited for yet.
 */
class Pipeline {
  #seq = 0;
  #open: Promise<unknown>[] = [];
  /** The number of the last savepoint statement that went through. */
  #savedAt = 0;
  first: Failure | null = null;

  constructor(readonly client: pg.PoolClient) {}

  send(query: string | pg.QueryConfig, unit: number | null, write = false): Promise<any> {
    const seq = ++this.#seq;
    const answer = (this.client.query(query as pg.QueryConfig) as Promise<unknown>).catch(
      (error: unknown) => {
        if (this.first === null || seq < this.first.seq) this.first = { seq, unit, error, write };
        throw error;
      },
    );
    this.#open.push(answer.catch(() => {}));
    return answer;
  }

  /** The unit before's savepoint released and the next one opened (not waited for). */
  savepoint(): void {
    const seq = this.#seq + 1;
    this.send("RELEASE SAVEPOINT unit; SAVEPOINT unit", null).then(
      () => {
        this.#savedAt = Math.max(this.#savedAt, seq);
      },
      () => {},
    );
  }

  /** Whether a savepoint statement sent after statement `seq` went through. */
  savedAfter(seq: number): boolean {
    return this.#savedAt > seq;
  }

  /** Waits for the answer of every statement sent so far. */
  async drain(): Promise<void> {
    while (this.#open.length) await Promise.all(this.#open.splice(0));
  }
}

/** One callback's view of the transaction's connection. */
class TxDb implements Db {
  #live = true;
  /** A statement of this unit failed: PostgreSQL aborts the (sub)transaction then. */
  failed = false;

  constructor(
    private readonly pipe: Pipeline,
    private readonly unit: number,
  ) {}

  end(): void {
    this.#live = false;
  }

  /**
   * Refuses a statement once the callback has finished. BEGIN is not waited for: a statement
   * goes out behind it on the connection and runs in its transaction, or, should BEGIN's lock or
   * reads fail, fails as every statement of an aborted transaction does (25P02), and the batch
   * fails with BEGIN's error (`settle`).
   */
  #check(): void {
    if (!this.#live) throw new Error("store: transaction already finished");
  }

  /** Sends at once, so that what the callback sends next goes out behind it. */
  #send(statement: Statement, values: readonly unknown[], write: boolean) {
    const answer = this.pipe.send({ ...statement, values: bound(values) }, this.unit, write);
    return answer.catch((error: unknown) => {
      this.failed = true;
      throw error;
    }) as Promise<pg.QueryResult>;
  }

  async run(statement: Statement, values: readonly unknown[] = []) {
    this.#check();
    const result = await this.#send(statement, values, false);
    return { rows: result.rows, count: result.rowCount ?? 0 };
  }

  /** Sent, not waited for: a failure is the unit's, found when the batch next waits (`settle`). */
  async write(statement: Statement, values: readonly unknown[] = []): Promise<void> {
    this.#check();
    this.#send(statement, values, true).catch(() => {});
  }
}

/** A promise whose rejection is handled (awaited later), so it is never reported unhandled. */
function sent<T>(query: Promise<T>): Promise<T> {
  query.catch(() => {});
  return query;
}

/** What a batch needs from its store: the schema (its write lock) and who hears commits. */
export interface BatchContext {
  schema: string;
  /** After a COMMIT that stored events: the highest id stored. */
  committed(lastEventId: number): void;
}

/** A unit that has run: its outcome so far, and what rolling it back needs. */
interface Ran {
  outcome: Outcome;
  readonly db: TxDb;
  readonly writer: PgWriter;
  /** The batch's ids before the unit took any (given back when it is rolled back). */
  readonly ids: IdsMark;
}

/** What the units of one batch share. */
interface BatchState {
  readonly pipe: Pipeline;
  readonly schema: string;
  /** BEGIN, sent but maybe not answered yet. */
  readonly begin: Promise<unknown>;
  /** Several units: each in its own savepoint. */
  readonly shared: boolean;
  readonly runs: RunCache;
  /** The event and task ids the batch hands out (batch-ids.ts). */
  readonly ids: BatchIds;
  /** The units that have run, in order. */
  readonly ran: Ran[];
  /** How many of them are decided: their statements answered, a failure among them handled. */
  decided: number;
}

async function runUnit(state: BatchState, unit: QueuedUnit): Promise<Ran> {
  const db = new TxDb(state.pipe, state.ran.length);
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
  return { outcome, db, writer, ids };
}

/**
 * Waits for every answer, then handles the first statement that failed, or else a unit that
 * failed on its own (the last one run): back to the failed unit's savepoint, which stays open
 * for the next unit. Answers whether it rolled back. Throws when the batch cannot go on (BEGIN
 * or a savepoint failed, or the savepoint to go back to is gone): nothing of it is durable.
 */
async function settle(state: BatchState): Promise<boolean> {
  const { pipe, ran } = state;
  await pipe.drain();
  await state.begin;
  const first = pipe.first;
  let at = -1;
  if (first !== null) {
    if (first.unit === null) throw first.error;
    if (pipe.savedAfter(first.seq)) {
      throw new Error("store: a statement failed and the batch had moved past its unit", {
        cause: first.error,
      });
    }
    at = first.unit;
  } else {
    at = ran.findIndex((r, i) => i >= state.decided && !r.outcome.ok);
  }
  state.decided = ran.length;
  if (at < 0) return false;
  const failed = ran[at];
  // The failure that is the unit's own: a write it never saw fail, else what its callback threw
  // (it may have wrapped a failed statement), else the statement it caught and went on from.
  const error =
    first !== null && (first.write || failed.outcome.ok) ? first.error : errorOf(failed.outcome);
  failed.outcome = { ok: false, error };
  // The units after it ran on a transaction that was no longer there (even one that sent no
  // statement may have read what the failed unit left in the run cache).
  for (const later of ran.slice(at + 1)) {
    later.outcome = { ok: false, error: new BehindFailedUnit(error) };
  }
  pipe.first = null;
  if (!state.shared) return true;
  // What the units read or counted from is gone with them.
  state.runs.clear();
  await state.ids.reset(failed.ids);
  await pipe.client.query("ROLLBACK TO SAVEPOINT unit");
  return true;
}

/** PostgreSQL's "current transaction is aborted" (in_failed_sql_transaction). */
function isAborted(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "25P02";
}

function errorOf(outcome: Outcome): unknown {
  return outcome.ok ? undefined : outcome.error;
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
async function runAll(state: BatchState, batch: QueuedUnit[]): Promise<void> {
  // The first unit's savepoint came with BEGIN; after a unit rolled back, its savepoint is reused.
  let reuse = true;
  for (const unit of batch) {
    if (!reuse) state.pipe.savepoint();
    const ran = await runUnit(state, unit);
    state.ran.push(ran);
    // A unit that failed, or saw a statement fail, is settled before the next one starts: its
    // savepoint must be the open one when it is rolled back to.
    reuse = !ran.outcome.ok || ran.db.failed ? await settle(state) : false;
  }
  const client = state.pipe.client;
  if (!state.shared && state.ran[0].outcome.ok && !state.ran[0].db.failed) {
    await commitBehind(state);
    return;
  }
  await settle(state);
  const lone = !state.shared && !state.ran[0].outcome.ok;
  const done = lone ? await client.query("ROLLBACK") : await commit(client, state.ids);
  // COMMIT of an aborted transaction answers ROLLBACK instead of failing.
  if (!lone && done.command !== "COMMIT") {
    throw new Error("store: the transaction was rolled back at commit");
  }
}

/**
 * A lone unit's COMMIT, sent behind its writes without waiting for their answers (one round
 * trip less): should one of them have failed, the unit fails whole either way, and the COMMIT
 * of the aborted transaction answers ROLLBACK (or, sent with the sequence's move, fails behind
 * it, and the transaction is rolled back here).
 */
async function commitBehind(state: BatchState): Promise<void> {
  const client = state.pipe.client;
  const done = sent(commit(client, state.ids));
  if (await settle(state)) {
    await done.catch(() => {});
    await client.query("ROLLBACK");
    return;
  }
  if ((await done).command !== "COMMIT") {
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
  const shared = batch.length > 1;
  const pipe = new Pipeline(client);
  const begin = sent(pipe.send(beginText(context.schema, shared), null));
  const state: BatchState = {
    ...{ pipe, schema: context.schema, begin, shared, runs: new RunCache() },
    ...{ ids: new BatchIds(sent(batchStart(begin))), ran: [], decided: 0 },
  };
  let failure: { error: unknown } | null = null;
  try {
    await runAll(state, batch);
  } catch (error) {
    // BEGIN, a savepoint or COMMIT failed: nothing of the batch is durable.
    failure = { error };
    await client.query("ROLLBACK").catch(() => {});
  }
  // A connection whose transaction failed is closed, not reused: its state is unknown.
  client.release(failure === null ? undefined : new Error("store: batch failed"));
  const ran = state.ran;
  if (failure === null) {
    const last = ran.reduce(
      (high, r) => (r.outcome.ok ? Math.max(high, r.writer.storedUpTo) : high),
      0,
    );
    if (last > 0) context.committed(last);
  }
  batch.forEach((unit, i) => {
    const outcome: Outcome | undefined = ran[i]?.outcome;
    // A statement refused as the transaction was already aborted tells nothing of its own: the
    // batch's failure (BEGIN's, say) is the cause.
    if (outcome === undefined || (failure !== null && !outcome.ok && isAborted(outcome.error))) {
      unit.reject(failure?.error);
    } else if (!outcome.ok) unit.reject(outcome.error);
    else if (failure !== null) unit.reject(failure.error);
    else unit.resolve(outcome.value);
  });
}
