// The queue behind group commit: callbacks that arrive while a batch runs, or within the same
// turn of the event loop, are handed to the runner together as the next batch. Batches run
// strictly one after another (SQLite has one writer per connection).
import type { StoreWriter } from "../../engine/store.ts";

export interface QueuedTransaction {
  fn: (tx: StoreWriter) => Promise<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

/** Large enough to amortize a commit, small enough to bound one batch's latency. */
const MAX_BATCH = 256;

export class TransactionQueue {
  readonly #pending: QueuedTransaction[] = [];
  #running: Promise<void> | null = null;

  constructor(private readonly runBatch: (batch: QueuedTransaction[]) => Promise<void>) {}

  push<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ fn, resolve, reject });
      // Start on the next turn so that every transaction requested in this one joins the batch.
      this.#running ??= new Promise((r) => setImmediate(r)).then(() => this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#pending.length) {
      await this.runBatch(this.#pending.splice(0, MAX_BATCH));
    }
    this.#running = null;
  }

  /** Settles when everything queued so far has finished. */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }
}
