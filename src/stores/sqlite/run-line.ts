// One workflow's claimable runs in dispatch-list order: a binary min-heap on the run's position.
// A run leaving the line is not searched for; its entry goes stale (its slot's version moved
// on) and is dropped when it reaches the top, or by the sweep that runs every few thousand
// pushes so stale entries cannot pile up. Positions never change while the index is loaded
// (moves and deletes drop the whole index), so the heap order stays valid.
import type { RunSlot } from "./ready-index.ts";

interface Entry {
  slot: RunSlot;
  version: number;
  position: number;
}

const SWEEP_EVERY = 4096;

const live = (e: Entry) => e.slot.inLine && e.slot.version === e.version;

export class RunLine {
  #heap: Entry[] = [];
  #pushes = 0;

  push(slot: RunSlot): void {
    if (++this.#pushes % SWEEP_EVERY === 0) this.#sweep();
    this.#heap.push({ slot, version: slot.version, position: slot.run.position });
    this.#up(this.#heap.length - 1);
  }

  /** The claimable run first in the list, or undefined. */
  peek(): RunSlot | undefined {
    while (this.#heap.length > 0 && !live(this.#heap[0])) this.#pop();
    return this.#heap[0]?.slot;
  }

  #pop(): void {
    const last = this.#heap.pop()!;
    if (this.#heap.length === 0) return;
    this.#heap[0] = last;
    this.#down(0);
  }

  /** Drops the stale entries and rebuilds the heap from the rest, in linear time. */
  #sweep(): void {
    if (this.#heap.every(live)) return; // nothing stale: still a heap
    const kept = this.#heap.filter(live);
    this.#heap = kept;
    for (let i = (kept.length >> 1) - 1; i >= 0; i--) this.#down(i);
  }

  #up(i: number): void {
    const h = this.#heap;
    const e = h[i];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (h[parent].position <= e.position) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = e;
  }

  #down(i: number): void {
    const h = this.#heap;
    const e = h[i];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= h.length) break;
      if (child + 1 < h.length && h[child + 1].position < h[child].position) child += 1;
      if (h[child].position >= e.position) break;
      h[i] = h[child];
      i = child;
    }
    h[i] = e;
  }
}
