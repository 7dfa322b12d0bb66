// Holds live events while a stream's replay is read from the store, then lets them through.
// Subscribing before the store read and releasing only ids past the replay is what makes the
// seam between replay and live free of gaps and duplicates. Live events reach the buffer on the
// fan-out's turn (event-fanout.ts), which may come after the release for events the replay
// already held, so stored ids at or below the seam are dropped after the release too.
import type { EventRecord } from "../../engine/index.ts";

export class SeamBuffer {
  #held: EventRecord[] | null = [];
  #overflowed = false;
  #seam = 0;
  readonly #cap: number;
  readonly #forward: (event: EventRecord) => void;

  /** `cap` bounds what is held: a flood during one store read turns into a resync instead. */
  constructor(cap: number, forward: (event: EventRecord) => void) {
    this.#cap = cap;
    this.#forward = forward;
  }

  /** True when events were dropped while holding; the client must resync. */
  get overflowed(): boolean {
    return this.#overflowed;
  }

  accept(event: EventRecord): void {
    if (this.#held !== null) {
      if (this.#held.length >= this.#cap) this.#overflowed = true;
      else this.#held.push(event);
    } else if (event.id === null || event.id > this.#seam) {
      this.#forward(event);
    }
  }

  /** Forwards what was held, minus stored events at or below `seam`, and stops holding. */
  release(seam: number): void {
    const held = this.#overflowed ? [] : (this.#held ?? []);
    this.#held = null;
    this.#seam = seam;
    for (const event of held) this.accept(event);
  }
}
