// A FIFO async lock: `run` calls start one after another, each after the previous settled.
// Needed because better-sqlite3 is synchronous but a transaction's callback awaits, and SQLite
// allows one open transaction per connection.
export class AsyncMutex {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(fn);
    // The next caller waits for this one to settle, whatever the outcome.
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  /** Settles when everything queued so far has finished. */
  idle(): Promise<void> {
    return this.#tail.then(() => undefined);
  }
}
