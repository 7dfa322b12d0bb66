// WAL checkpoints off the event loop. SQLite's automatic checkpoint runs inside whichever
// COMMIT crosses the WAL's size limit and ends with fsyncs of the WAL and the database file;
// on a shared virtual disk one of those took 100 ms and more, during which the server answered
// nothing (the tail of the W2 latency benchmark, bench/HISTORY.md round 3). So the writer does not
// checkpoint by itself; a worker thread with its own connection runs a PASSIVE checkpoint every
// few hundred ms, which never blocks the writer.
//
// Under a steady stream of commits the WAL never restarts from its beginning (SQLite restarts it
// only at a write transaction that finds every frame copied, and the writer keeps adding frames
// while the worker copies), so it grows even though the worker keeps up; the writer then takes
// over, and its checkpoint (copy of the frames left, fsync of the database file) lands in one
// COMMIT. The bound is in bytes, not frames, so it does not depend on the page size.
//
// Bounded: should the worker fall behind (the WAL past FALL_BEHIND_BYTES), the writer takes
// automatic checkpoints again until it has caught up; should the worker fail, for good. Close
// stops the worker first, so the writer is the last connection and removes the WAL.
import { once } from "node:events";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";

const EVERY_MS = 200;
/** SQLite's own default limit, used whenever the writer checkpoints for itself. */
const AUTO_FRAMES = 1000;
const FALL_BEHIND_BYTES = 64 * 2 ** 20;
const STOP_WAIT_MS = 5000;

export interface CheckpointReport {
  /** Frames in the WAL, and how many of them are copied into the database file. */
  log: number;
  checkpointed: number;
}

export class Checkpointer {
  readonly #writer: Database.Database;
  readonly #worker: Worker;
  readonly #fallBehindFrames: number;
  #writerCheckpoints = false;
  #failed = false;
  last: CheckpointReport | null = null;

  constructor(path: string, writer: Database.Database, synchronous: string, busyMs: number) {
    this.#writer = writer;
    writer.pragma("wal_autocheckpoint = 0");
    const pageBytes = writer.pragma("page_size", { simple: true }) as number;
    this.#fallBehindFrames = Math.max(AUTO_FRAMES, Math.floor(FALL_BEHIND_BYTES / pageBytes));
    const workerData = { path, synchronous, busyTimeoutMs: busyMs, everyMs: EVERY_MS };
    // `execArgv: []`: the worker is plain JavaScript and needs none of the process's flags. It
    // would inherit `--import tsx` (how the server runs from a clone) and load the TypeScript
    // loader into its own isolate again: about 9 MiB of the server's RSS (bench/HISTORY.md
    // round 15-latency).
    this.#worker = new Worker(new URL("./checkpoint-worker.mjs", import.meta.url), {
      workerData,
      execArgv: [],
    });
    this.#worker.on("message", (m: CheckpointReport | { error: string } | { ready: true }) => {
      if ("log" in m) this.#report(m);
    });
    this.#worker.on("error", () => this.#fail());
    this.#worker.on("exit", () => this.#fail());
    // After the listeners: attaching one refs the worker again, and it must never keep the
    // process alive on its own.
    this.#worker.unref();
  }

  /** Whether the writer checkpoints by itself now (worker behind or gone). */
  get writerCheckpoints(): boolean {
    return this.#writerCheckpoints;
  }

  #report(report: CheckpointReport): void {
    this.last = report;
    if (this.#failed) return;
    if (report.log > this.#fallBehindFrames) this.#setWriterCheckpoints(true);
    else if (report.log - report.checkpointed < AUTO_FRAMES) this.#setWriterCheckpoints(false);
  }

  #fail(): void {
    if (this.#failed) return;
    this.#failed = true;
    if (this.#writer.open) this.#setWriterCheckpoints(true);
  }

  #setWriterCheckpoints(on: boolean): void {
    if (on === this.#writerCheckpoints) return;
    this.#writerCheckpoints = on;
    this.#writer.pragma(`wal_autocheckpoint = ${on ? AUTO_FRAMES : 0}`);
  }

  /** Stops the worker (waiting at most STOP_WAIT_MS, then terminating it). */
  async stop(): Promise<void> {
    this.#failed = true;
    const exited = once(this.#worker, "exit").catch(() => undefined);
    this.#worker.postMessage("stop");
    const timer = setTimeout(() => void this.#worker.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(timer);
  }
}
