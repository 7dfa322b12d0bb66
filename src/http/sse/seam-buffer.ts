// Holds live events while a stream's replay is read from the store, then lets them through.
// Subscribing before the store read and releasing only ids past the replay is what makes the
// seam between replay and live free of gaps and duplicates.
import type { EventRecord } from "../../engine/domain.ts";

export class SeamBuffer {
  #held: EventRecord[] | null = [];
  #overflowed = false;
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
    if (this.#held === null) this.#forward(event);
    else if (this.#held.length >= this.#cap) this.#overflowed = true;
    else this.#held.push(event);
  }

  /** Forwards what was held, minus stored events at or below `seam`, and stops holding. */
  release(seam: number): void {
    const held = this.#overflowed ? [] : (this.#held ?? []);
    this.#held = null;
    for (const event of held) {
      if (event.id === null || event.id > seam) this.#forward(event);
    }
  }
}
