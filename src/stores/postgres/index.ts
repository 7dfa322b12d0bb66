// PostgreSQL implementation of `Store` (src/engine/store.ts) on node-postgres (`pg`).
//
// Transactions: every `transact` runs on ONE dedicated writer connection (a pool of one, so a
// broken connection is replaced), queued and run strictly one after another in the order asked
// for: that is what makes them serialized with respect to each other, as the contract demands,
// without SERIALIZABLE retries (the engine's read-then-write callbacks would otherwise need to
// be re-run on every serialization failure). Group commit, as in the SQLite store: callbacks
// queued within one turn of the event loop share one BEGIN .. COMMIT, each in its own SAVEPOINT,
// so one that throws rolls back only its own writes, while the batch shares one commit (one WAL
// flush). No callback's promise settles before the COMMIT that made its writes durable, so
// nothing acknowledged can be lost. Calling `store.transact` from inside a callback would wait
// on itself: use `tx`. Unlike SQLite, a statement that fails aborts the transaction: a callback
// that catches it and goes on is rolled back and rejected with that failure.
//
// Reads outside `transact` go to a separate pool of connections, each statement under READ
// COMMITTED, so they see committed data only, never the open batch.
//
// Several servers on one schema: the writer connection serializes one server's transactions;
// across servers every transaction takes the schema's write lock right after BEGIN
// (transaction.ts), so the batches of all servers are serialized too: a read-then-write
// decision (a join's arrivals, a run's settlement, a pool's count) sees every commit before it,
// positions stay dense and event ids follow commit order (events.ts). `cluster` (cluster.ts)
// is what the engine uses to be one of several servers: rows and leases, presence, notices.
import type pg from "pg";
import type { Store, StoreProbe, StoreWriter } from "../../engine/index.ts";
import { TransactionQueue } from "../transaction-queue.ts";
import { PgCluster } from "./cluster.ts";
import {
  describeFailure,
  openPools,
  type Pools,
  type PostgresOptions,
  parseTarget,
  type Target,
} from "./connection.ts";
import { MIGRATIONS, migrate, schemaVersion } from "./migrations.ts";
import { PlannerStats } from "./planner-stats.ts";
import { PgReader } from "./reader.ts";
import { poolDb, runBatch } from "./transaction.ts";

export type { PostgresOptions } from "./connection.ts";
export { MIGRATIONS, type Migration, migrate, schemaVersion } from "./migrations.ts";

/** Enough to share one commit among a burst; small enough to bound one batch's latency. */
const POSTGRES_MAX_BATCH = 64;

export class PostgresStore extends PgReader implements Store {
  /** The PostgreSQL schema holding the tables (`?schema=` of the URL, else `public`). */
  readonly schema: string;
  /** `user@host:port/database`: the store's address without the password. */
  readonly label: string;
  readonly #pools: Pools;
  readonly #queue: TransactionQueue;
  /** Several servers sharing the schema (cluster.ts). */
  readonly cluster: PgCluster;
  readonly #stats: PlannerStats;
  #closed = false;

  constructor(target: Target, pools: Pools) {
    super(poolDb(pools.reader));
    this.schema = target.schema;
    this.label = target.label;
    this.#pools = pools;
    this.cluster = new PgCluster(target, poolDb(pools.reader));
    this.#stats = new PlannerStats(pools.reader);
    const batch = {
      schema: target.schema,
      committed: (last: number) => {
        this.cluster.committed(last);
        this.#stats.committed(last);
      },
    };
    this.#queue = new TransactionQueue(
      (units) => runBatch(pools.writer, units, batch),
      POSTGRES_MAX_BATCH,
    );
  }

  transact<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("store is closed"));
    return this.#queue.push(fn);
  }

  /** The schema version the tables are at (diagnostics and tests). */
  async schemaVersion(): Promise<number> {
    const client = await this.#pools.reader.connect();
    try {
      return await schemaVersion(client, this.schema);
    } finally {
      client.release();
    }
  }

  /** Reads the schema version on a read connection: rejects when the server cannot be reached. */
  async probe(): Promise<StoreProbe> {
    return { schema: await this.schemaVersion(), expected: MIGRATIONS.length };
  }

  /** Waits for queued transactions, then closes the connections. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue.idle();
    await this.#stats.idle();
    await this.cluster.close();
    await Promise.all([this.#pools.writer.end(), this.#pools.reader.end()]);
  }
}

/** Connects, checks the read pool, and creates or upgrades the schema's tables. */
async function prepare(target: Target, pools: Pools): Promise<void> {
  let client: pg.PoolClient;
  try {
    client = await pools.writer.connect();
    await pools.reader.query("SELECT 1");
  } catch (err) {
    throw describeFailure(target, "connect to", err);
  }
  try {
    await migrate(client, target.schema);
  } catch (err) {
    throw describeFailure(target, `prepare schema "${target.schema}" on`, err);
  } finally {
    client.release();
  }
}

/**
 * Opens the store at a `postgres://` or `postgresql://` URL. `?schema=NAME` picks the schema
 * (created if absent; default `public`); the other parameters go to `pg` as they are. Rejects
 * with a message naming user, host, port and database (never the password) when the server
 * cannot be reached, refuses the login, or the schema cannot be prepared.
 */
export async function openPostgresStore(
  url: string,
  options?: PostgresOptions,
): Promise<PostgresStore> {
  const target = parseTarget(url);
  const pools = openPools(target, options);
  try {
    await prepare(target, pools);
  } catch (err) {
    await Promise.all([pools.writer.end(), pools.reader.end()]).catch(() => {});
    throw err;
  }
  return new PostgresStore(target, pools);
}
