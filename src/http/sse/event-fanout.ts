// Between the engine's bus and the open event streams. The bus delivers synchronously inside
// the engine's publish, right after a commit, so what runs there must not grow with the number
// of streams or with what a client asked for. The fan-out is the bus's one listener for all
// streams: it only appends the event to a batch. The batch is handed to the streams on a later
// turn of the event loop, where each stream filters it (its own run and name globs) and writes.
// The engine's publish stays O(1) per event however many streams are open. The fan-out listens
// to the bus only while a stream is open.
import type { EventBus, EventRecord } from "../../engine/index.ts";

/** One stream's side: receives each batch in publish order and keeps what it wants. */
export type BatchSink = (events: readonly EventRecord[]) => void;

export class EventFanout {
  readonly #bus: EventBus;
  readonly #sinks = new Set<BatchSink>();
  #batch: EventRecord[] = [];
  #scheduled = false;
  #unsubscribe: (() => void) | null = null;

  constructor(bus: EventBus) {
    this.#bus = bus;
  }

  readonly #take = (event: EventRecord): void => {
    this.#batch.push(event);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#deliver);
    }
  };

  /**
   * Adds a stream; answers the function that removes it. A sink added while a batch waits
   * receives that batch too: those events are committed, and a stream that also reads the store
   * drops the ids its replay covered, so nothing is lost or doubled at the seam.
   */
  add(sink: BatchSink): () => void {
    this.#sinks.add(sink);
    this.#unsubscribe ??= this.#bus.subscribe(this.#take);
    return () => {
      this.#sinks.delete(sink);
      if (this.#sinks.size === 0) this.close();
    };
  }

  /**
   * Hands the waiting batch over now. The server calls it before it closes the streams, so the
   * last events published (`engine.stopping`) still reach them.
   */
  flush(): void {
    if (this.#batch.length > 0) this.#deliver();
  }

  /** Stops listening to the bus and forgets every stream (the last one left, or shutdown). */
  close(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = null;
    this.#sinks.clear();
    this.#batch = [];
  }

  readonly #deliver = (): void => {
    const batch = this.#batch;
    this.#batch = [];
    this.#scheduled = false;
    if (batch.length === 0) return; // flushed before its turn came
    for (const sink of this.#sinks) {
      try {
        sink(batch);
      } catch {
        // One faulty stream must not keep the batch from the others.
      }
    }
  };
}
