// The engine's time: every "now" the engine writes and every timer it arms for a due moment
// (a retry's not-before, a sleep's wake, a schedule's next fire) goes through one Clock, so a
// test can hold time still and move it forward instead of waiting for it.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once the clock reaches `at` (epoch ms); the returned function cancels it. */
  at(at: number, fn: () => void): () => void;
}

/** Wall-clock time; timers do not keep the process alive. */
export const systemClock: Clock = {
  now: () => Date.now(),
  at(at, fn) {
    // setTimeout's delay is a signed 32-bit count of ms: longer waits re-arm on expiry.
    const MAX = 2_147_483_647;
    let handle: NodeJS.Timeout;
    const arm = () => {
      const delay = at - Date.now();
      if (delay <= 0) return void fn();
      handle = setTimeout(delay > MAX ? arm : fn, Math.min(delay, MAX));
      handle.unref();
    };
    arm();
    return () => clearTimeout(handle);
  },
};

/**
 * A clock that moves only when told (`advance`, `set`): timers due at or before the new time
 * fire in due order. For tests of timed work that must not wait real hours.
 */
export class ManualClock implements Clock {
  #now: number;
  #timers: Array<{ at: number; fn: () => void; seq: number }> = [];
  #seq = 0;

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  at(at: number, fn: () => void): () => void {
    const timer = { at, fn, seq: this.#seq++ };
    this.#timers.push(timer);
    if (at <= this.#now) queueMicrotask(() => this.#fireDue());
    return () => {
      this.#timers = this.#timers.filter((t) => t !== timer);
    };
  }

  /** Moves time forward by `ms` and fires what became due. */
  advance(ms: number): void {
    this.set(this.#now + ms);
  }

  /** Moves time to `at` (never backwards) and fires what became due. */
  set(at: number): void {
    this.#now = Math.max(this.#now, at);
    this.#fireDue();
  }

  /** Timers still armed (for tests that check nothing is left behind). */
  get pending(): number {
    return this.#timers.length;
  }

  #fireDue(): void {
    const due = this.#timers
      .filter((t) => t.at <= this.#now)
      .sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.#timers = this.#timers.filter((t) => t.at > this.#now);
    for (const t of due) t.fn();
  }
}
