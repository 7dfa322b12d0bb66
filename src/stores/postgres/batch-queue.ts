// The queue behind group commit: `transact` callbacks asked for within one turn of the event
// loop, or while a batch runs, become the next batch. Batches run strictly one after another,
// so transactions are serialized in the order they were asked for.
import type { StoreWriter } from "../../engine/store.ts";

export interface QueuedUnit {
  fn: (tx: StoreWriter) => Promise<unknown>;
  resolve: (value: any) => void;
  reject: (error: unknown) => void;
}

/** Enough to share one commit among a burst; small enough to bound one batch's latency. */
const MAX_BATCH = 64;

export class BatchQueue {
  readonly #pending: QueuedUnit[] = [];
  #draining: Promise<void> | null = null;

  constructor(private readonly runBatch: (units: QueuedUnit[]) => Promise<void>) {}

  push<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ fn, resolve, reject });
      // Start on the next turn, so every transaction asked for in this one joins the batch.
      this.#draining ??= new Promise((r) => setImmediate(r)).then(() => this.#drain());
    });
  }

  async #drain(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, MAX_BATCH);
      // The runner settles every unit itself; this only guards against a bug leaving one open.
      await this.runBatch(batch).catch((err) => {
        for (const unit of batch) unit.reject(err);
      });
    }
    this.#draining = null;
  }

  /** Settles when everything queued so far has finished. */
  async idle(): Promise<void> {
    while (this.#draining) await this.#draining;
  }
}
