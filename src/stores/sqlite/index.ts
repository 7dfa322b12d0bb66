// SQLite implementation of `Store` (src/engine/store.ts) on better-sqlite3.
//
// Transactions: better-sqlite3 is synchronous while `transact` callbacks are async, so
// transactions queue on an in-process mutex and each runs BEGIN IMMEDIATE .. COMMIT on the
// writer connection (IMMEDIATE takes the write lock up front, so another process sharing the
// file waits on busy_timeout instead of failing mid-transaction). Calling `store.transact`
// from inside a transaction callback would wait on itself: use the `tx` argument instead.
//
// Reads outside `transact` go to a second, read-only connection: under WAL each statement sees
// the last committed state, never the open transaction. For `:memory:` there is only one
// connection (a private in-memory database cannot be shared), so outside reads DO see an open
// transaction's uncommitted writes; use `:memory:` for throwaway tools and tests only.
import type Database from "better-sqlite3";
import type { Store, StoreWriter } from "../../engine/store.ts";
import { type Connections, MEMORY, openConnections, type SqliteOptions } from "./connection.ts";
import { AsyncMutex } from "./mutex.ts";
import { prepareReads, type ReadQueries, SqliteReader } from "./reader.ts";
import { prepareWrites, SqliteWriter, type WriteQueries } from "./writer.ts";

export type { SqliteOptions } from "./connection.ts";
export { MIGRATIONS, type Migration, migrate, schemaVersion } from "./migrations.ts";

export class SqliteStore extends SqliteReader implements Store {
  readonly path: string;
  readonly #connections: Connections;
  readonly #txReads: ReadQueries;
  readonly #writes: WriteQueries;
  readonly #begin: Database.Statement;
  readonly #commit: Database.Statement;
  readonly #rollback: Database.Statement;
  readonly #mutex = new AsyncMutex();
  #closed = false;

  constructor(path: string, connections: Connections) {
    const { reader, writer } = connections;
    const txReads = prepareReads(writer);
    super(reader === writer ? txReads : prepareReads(reader));
    this.path = path;
    this.#connections = connections;
    this.#txReads = txReads;
    this.#writes = prepareWrites(writer);
    this.#begin = writer.prepare("BEGIN IMMEDIATE");
    this.#commit = writer.prepare("COMMIT");
    this.#rollback = writer.prepare("ROLLBACK");
  }

  transact<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("store is closed"));
    return this.#mutex.run(() => this.#runTransaction(fn));
  }

  async #runTransaction<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    const writer = this.#connections.writer;
    this.#begin.run();
    const tx = new SqliteWriter(this.#txReads, this.#writes);
    try {
      const value = await fn(tx);
      this.#commit.run();
      return value;
    } catch (err) {
      // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL).
      if (writer.inTransaction) this.#rollback.run();
      throw err;
    } finally {
      tx.end();
    }
  }

  /** A pragma's value on the writer connection (diagnostics and tests). */
  pragma(name: string): unknown {
    return this.#connections.writer.pragma(name, { simple: true });
  }

  /** Waits for queued transactions, then closes the connections. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#mutex.idle();
    const { reader, writer } = this.#connections;
    if (reader !== writer) reader.close();
    writer.pragma("optimize");
    writer.close();
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
