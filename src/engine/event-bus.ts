// In-process fan-out of committed events. The engine publishes only after the transaction that
// stored the events has committed, so a subscriber never sees a change that could roll back.
// Delivery is synchronous and must stay cheap: a subscriber that needs to do I/O (an SSE
// connection) keeps its own bounded queue and is dropped to `resync` when it falls behind, so a
// slow reader can never block the engine.
import type { EventRecord } from "./domain.ts";

export type EventListener = (event: EventRecord) => void;

export class EventBus {
  readonly #listeners = new Set<EventListener>();

  /** Registers a listener; answers the function that removes it. */
  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  publish(events: readonly EventRecord[]): void {
    for (const event of events) {
      for (const listener of this.#listeners) {
        try {
          listener(event);
        } catch {
          // A faulty subscriber must not stop delivery to the others or fail the engine.
        }
      }
    }
  }

  get size(): number {
    return this.#listeners.size;
  }
}
