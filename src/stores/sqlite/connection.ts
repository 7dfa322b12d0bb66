// Opening the SQLite file: one writer connection (all transactions) and, for a file, a second
// read-only connection for reads outside transactions. In WAL mode each read on that second
// connection sees the last committed state, never the writer's open transaction.
import Database from "better-sqlite3";
import { Checkpointer } from "./checkpointer.ts";
import { migrate } from "./migrations.ts";
import { ensurePrivateFile } from "./private-files.ts";
import { holdServingLock } from "./serving-lock.ts";

export interface SqliteOptions {
  /** NORMAL (default) may lose the last commits on power loss but never corrupts; FULL syncs each commit. */
  synchronous?: "NORMAL" | "FULL";
  /** How long a connection waits for another process's lock before failing (default 5000). */
  busyTimeoutMs?: number;
  /**
   * Serve from this file alone: refuse to open while another store holds it exclusively, and
   * hold it so until closed (serving-lock.ts). What `yardmaster serve` opens; tests that open
   * one file twice on purpose leave it off. Ignored for `:memory:`.
   */
  exclusive?: boolean;
}

export interface Connections {
  writer: Database.Database;
  /** The same object as `writer` for `:memory:` (a private in-memory database has one connection). */
  reader: Database.Database;
  /** WAL checkpoints on a worker thread (checkpointer.ts); none for `:memory:`. */
  checkpointer: Checkpointer | null;
  /** The serving lock of an `exclusive` store, released last on close. */
  servingLock: Database.Database | null;
}

export const MEMORY = ":memory:";

/**
 * Page size of a NEW file (an existing file keeps its own: under WAL it cannot change). Commits
 * write every page a batch dirtied, whole, to the WAL, and a batch's row writes are scattered
 * over many B-tree pages (each run's tasks and events, each status index): with 2 KiB pages a
 * commit writes half the bytes for the same rows. Measured in W1 (6,000 runs, 3 interleaved
 * pairs): 4 KiB 4,688-5,325 steps per CPU-second, 2 KiB 5,248-5,625, 8 KiB clearly worse.
 */
const NEW_FILE_PAGE_BYTES = 2048;

/** Negative: KiB rather than pages (64 MiB). */
const WRITER_CACHE_KIB = -65536;

export function openConnections(path: string, options: SqliteOptions = {}): Connections {
  if (path !== MEMORY) ensurePrivateFile(path);
  // Taken first: a second server must not even migrate a file another one serves from.
  const servingLock = options.exclusive && path !== MEMORY ? holdServingLock(path) : null;
  try {
    return { ...openDatabases(path, options), servingLock };
  } catch (err) {
    servingLock?.close();
    throw err;
  }
}

function openDatabases(path: string, options: SqliteOptions): Omit<Connections, "servingLock"> {
  const busy = options.busyTimeoutMs ?? 5000;
  const synchronous = options.synchronous === "FULL" ? "FULL" : "NORMAL";
  const writer = new Database(path, { timeout: busy });
  try {
    writer.pragma(`page_size = ${NEW_FILE_PAGE_BYTES}`);
    writer.pragma("journal_mode = WAL");
    writer.pragma(`synchronous = ${synchronous}`);
    writer.pragma("foreign_keys = ON");
    // SQLite's default page cache is 2 MiB, smaller than a busy store's working set (the
    // right-hand pages of every index plus the rows of the runs in flight): pages evicted
    // mid-batch are read again. The cache only grows as pages are used.
    writer.pragma(`cache_size = ${WRITER_CACHE_KIB}`);
    writer.pragma(`busy_timeout = ${Math.trunc(busy)}`);
    migrate(writer);
  } catch (err) {
    writer.close();
    throw err;
  }
  if (path === MEMORY) return { writer, reader: writer, checkpointer: null };
  const reader = new Database(path, { readonly: true, fileMustExist: true, timeout: busy });
  reader.pragma(`busy_timeout = ${Math.trunc(busy)}`);
  const checkpointer = new Checkpointer(path, writer, synchronous, Math.trunc(busy));
  return { writer, reader, checkpointer };
}
