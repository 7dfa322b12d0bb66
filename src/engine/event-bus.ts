// In-process fan-out of committed events. The engine publishes only after the transaction that
// stored the events has committed, so a subscriber never sees a change that could roll back.
// Delivery is synchronous, inside the engine's publish, so a listener must only take the event
// over: the engine's own listeners are O(1) checks of one event, and the event streams have a
// single listener between them (http/sse/event-fanout.ts) that appends to a batch they filter
// and write on a later turn, each with its own bounded queue, so neither a client's filter nor
// a slow reader ever runs on, or blocks, the commit path.
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
