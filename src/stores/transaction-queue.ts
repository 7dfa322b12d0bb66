// The queue behind group commit, shared by the stores: `transact` callbacks that arrive while a
// batch runs, or within the same turn of the event loop, are handed to the store's runner
// together as the next batch. Batches run strictly one after another, so transactions are
// serialized in the order they were asked for (SQLite has one writer per connection; the
// PostgreSQL store one writer connection).
import type { StoreWriter } from "../engine/index.ts";

export interface QueuedTransaction {
  fn: (tx: StoreWriter) => Promise<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

export class TransactionQueue {
  readonly #pending: QueuedTransaction[] = [];
  #running: Promise<void> | null = null;

  /**
   * `maxBatch`: large enough to amortize a commit, small enough to bound one batch's latency
   * (each store picks it by what one of its commits costs).
   */
  constructor(
    private readonly runBatch: (batch: QueuedTransaction[]) => Promise<void>,
    private readonly maxBatch: number,
  ) {}

  push<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ fn, resolve, reject });
      // Start on the next turn so that every transaction requested in this one joins the batch.
      this.#running ??= new Promise((r) => setImmediate(r)).then(() => this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#pending.length) {
      const batch = this.#pending.splice(0, this.maxBatch);
      // The runner settles every callback itself; this only guards against one left open.
      await this.runBatch(batch).catch((err) => {
        for (const item of batch) item.reject(err);
      });
      // A synchronous store (SQLite) settles a batch in microtasks, and the attempts it starts
      // queue their outcomes before it ends: without a turn of the event loop between batches,
      // a run that keeps looping (or any steady stream of quick attempts) starves every socket,
      // timer and signal handler, so nobody could even cancel it.
      if (this.#pending.length) await new Promise((r) => setImmediate(r));
    }
    this.#running = null;
  }

  /** Settles when everything queued so far has finished. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }
}
