// A node timeout caps the time an attempt spends working, not the time it spends waiting on a
// person: the clock pauses while the task is `waiting` and resumes with what was left.
export class PausableTimer {
  #remaining: number;
  #startedAt = 0;
  #handle: NodeJS.Timeout | null = null;
  #fired = false;

  constructor(
    ms: number,
    private readonly onExpire: () => void,
  ) {
    this.#remaining = Math.max(0, ms);
    this.resume();
  }

  /** Milliseconds of the budget used so far. */
  get remaining(): number {
    if (!this.#handle) return this.#remaining;
    return Math.max(0, this.#remaining - (Date.now() - this.#startedAt));
  }

  pause(): void {
    if (!this.#handle) return;
    this.#remaining = this.remaining;
    clearTimeout(this.#handle);
    this.#handle = null;
  }

  resume(): void {
    if (this.#handle || this.#fired) return;
    this.#startedAt = Date.now();
    this.#handle = setTimeout(() => {
      this.#fired = true;
      this.#handle = null;
      this.onExpire();
    }, this.#remaining);
  }

  clear(): void {
    if (this.#handle) clearTimeout(this.#handle);
    this.#handle = null;
    this.#fired = true;
  }
}
