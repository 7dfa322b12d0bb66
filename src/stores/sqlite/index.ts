// SQLite implementation of `Store` (src/engine/store.ts) on better-sqlite3.
//
// Transactions: better-sqlite3 is synchronous while `transact` callbacks are async, so
// transactions queue and run one after another on the writer connection. Group commit: the
// callbacks queued within one turn of the event loop run inside one BEGIN IMMEDIATE .. COMMIT
// (a long batch in several, of UNITS_PER_COMMIT callbacks each), each callback in its own
// SAVEPOINT, so a callback that throws rolls back only its own writes. No
// callback's promise settles before the COMMIT that made its writes durable, so nothing is
// acknowledged that a crash could lose; the commit (and its fsync under synchronous=FULL) is
// shared by the whole batch. IMMEDIATE takes the write lock up front, so another process
// sharing the file waits on busy_timeout instead of failing mid-transaction. Calling
// `store.transact` from inside a transaction callback would wait on itself: use `tx`.
//
// Reads outside `transact` go to a second, read-only connection: under WAL each statement sees
// the last committed state, never the open transaction. For `:memory:` there is only one
// connection (a private in-memory database cannot be shared), so outside reads DO see an open
// transaction's uncommitted writes; use `:memory:` for throwaway tools and tests only.
import type Database from "better-sqlite3";
import type { Store, StoreProbe, StoreWriter } from "../../engine/index.ts";
import { type QueuedTransaction, TransactionQueue } from "../transaction-queue.ts";
import type { CheckpointReport } from "./checkpointer.ts";
import { type Connections, MEMORY, openConnections, type SqliteOptions } from "./connection.ts";
import { flushing } from "./held-task.ts";
import { MIGRATIONS, schemaVersion } from "./migrations.ts";
import { prepareReads, type ReadQueries, SqliteReader } from "./reader.ts";
import { prepareWrites, SqliteWriter, type WriteQueries } from "./writer.ts";

export type { SqliteOptions } from "./connection.ts";
export { MIGRATIONS, type Migration, migrate, schemaVersion } from "./migrations.ts";

/** Large enough to amortize a commit, small enough to bound one batch's latency. */
const SQLITE_MAX_BATCH = 256;
/**
 * A transaction holds at most this many callbacks of a batch; the rest of the batch goes on in
 * the next one. A count, not a time, so that a batch is cut the same way on a busy host as on a
 * quiet one (bench/HISTORY.md round 15-latency).
 */
export const UNITS_PER_COMMIT = 16;

export class SqliteStore extends SqliteReader implements Store {
  readonly path: string;
  readonly #connections: Connections;
  readonly #txReads: ReadQueries;
  readonly #writes: WriteQueries;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #rollback: Database.Statement;
  readonly #savepoint: Database.Statement;
  readonly #release: Database.Statement;
  readonly #rollbackTo: Database.Statement;
  readonly #queue: TransactionQueue;
  #closed = false;
  /** Transactions committed so far and the units of work they held (diagnostics, the bench). */
  readonly commits = { count: 0, units: 0, largest: 0 };

  constructor(path: string, connections: Connections) {
    const { reader, writer } = connections;
    const txReads = prepareReads(writer);
    super(reader === writer ? txReads : prepareReads(reader));
    this.path = path;
    this.#connections = connections;
    this.#writes = prepareWrites(writer);
    this.#txReads = flushing(txReads, this.#writes.held);
    this.#begin = writer.prepare("BEGIN IMMEDIATE");
    this.#commit = writer.prepare("COMMIT");
    this.#rollback = writer.prepare("ROLLBACK");
    this.#savepoint = writer.prepare("SAVEPOINT unit");
    this.#release = writer.prepare("RELEASE unit");
    this.#rollbackTo = writer.prepare("ROLLBACK TO unit");
    this.#queue = new TransactionQueue((batch) => this.#runBatch(batch), SQLITE_MAX_BATCH);
  }

  transact<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("store is closed"));
    return this.#queue.push(fn);
  }

  /**
   * Runs a batch of callbacks, answering each one's outcome after the COMMIT that made it
   * durable. The batch is cut into transactions of at most UNITS_PER_COMMIT callbacks: the units
   * at its head (a wave of finished attempts, each handing its slot on) are committed, and the
   * attempts they claimed started, before the later ones run, instead of every unit waiting for
   * the last one's COMMIT; the next wave then arrives spread out instead of all at once.
   */
  async #runBatch(batch: QueuedTransaction[]): Promise<void> {
    let from = 0;
    while (from < batch.length) from = await this.#runTransaction(batch, from);
  }

  /** One transaction over `batch` from `from` on; answers where the next one starts. */
  async #runTransaction(batch: QueuedTransaction[], from: number): Promise<number> {
    const writer = this.#connections.writer;
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    const end = Math.min(batch.length, from + UNITS_PER_COMMIT);
    let to = from;
    try {
      this.#begin.run();
      while (to < end) outcomes.push(await this.#runUnit(batch[to++]));
      this.#commit.run();
    } catch (err) {
      // BEGIN or COMMIT failed (or SQLite aborted the transaction): nothing of it is durable,
      // and the rest of the batch fails with it, as a batch in one transaction would.
      if (writer.inTransaction) this.#rollback.run();
      this.#forget();
      for (let i = from; i < batch.length; i++) batch[i].reject(err);
      return batch.length;
    }
    this.commits.count += 1;
    this.commits.units += to - from;
    if (to - from > this.commits.largest) this.commits.largest = to - from;
    for (let i = from; i < to; i++) {
      const outcome = outcomes[i - from];
      if (outcome.ok) batch[i].resolve(outcome.value);
      else batch[i].reject(outcome.error);
    }
    return to;
  }

  async #runUnit(item: QueuedTransaction) {
    const writer = this.#connections.writer;
    this.#savepoint.run();
    const tx = new SqliteWriter(this.#txReads, this.#writes);
    try {
      const value = await item.fn(tx);
      tx.flush();
      this.#release.run();
      return { ok: true as const, value };
    } catch (error) {
      // SQLite may have rolled the whole transaction back by itself (e.g. on SQLITE_FULL):
      // then the batch cannot commit and the caller sees the error through the commit path.
      // The ready index, the asking tasks and whether any arrival is stored followed the writes
      // being undone: they are read again on their next use.
      this.#forget();
      if (!writer.inTransaction) throw error;
      this.#rollbackTo.run();
      this.#release.run();
      return { ok: false as const, error };
    } finally {
      tx.end();
    }
  }

  /** Drops what the writer holds of the tables' state (after a rollback). */
  #forget(): void {
    this.#writes.claims.index.drop();
    this.#writes.requests.drop();
    this.#writes.misc.drop();
    this.#writes.held.drop();
  }

  /** The file's schema version, read on the read connection (fails once the store is closed). */
  async probe(): Promise<StoreProbe> {
    return { schema: schemaVersion(this.#connections.reader), expected: MIGRATIONS.length };
  }

  /** The last report of the checkpoint worker, or null (diagnostics and tests). */
  get checkpoints(): CheckpointReport | null {
    return this.#connections.checkpointer?.last ?? null;
  }

  /** A pragma's value on the writer connection (diagnostics and tests). */
  pragma(name: string): unknown {
    return this.#connections.writer.pragma(name, { simple: true });
  }

  /** Waits for queued transactions, then closes the connections. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.idle();
    const { reader, writer, checkpointer, servingLock } = this.#connections;
    // The worker's connection closes first, so the writer is the last one and removes the WAL.
    await checkpointer?.stop();
    if (reader !== writer) reader.close();
    writer.pragma("optimize");
    writer.close();
    servingLock?.close();
  }
}

/**
 * Opens (creating it and its parent directories if needed) and migrates the store at `path`,
 * or a private in-memory store for `:memory:`.
 */
export async function openSqliteStore(path: string, options?: SqliteOptions): Promise<SqliteStore> {
  return new SqliteStore(path, openConnections(path, options));
}

export { MEMORY };
