// How a live attempt is stopped (cancel, move, timeout, shutdown, or its own end). It offers
// what the AbortController it replaces offered, but makes the AbortSignal only when someone
// asks for it (a body reading `ctx.signal`, an ask, an agent): most attempts never do, and a
// controller, its signal, a listener and the abort event per attempt were 4 % of a W1 step.
export class AttemptStop {
  #stopped = false;
  #reason: unknown;
  #controller: AbortController | null = null;
  #until: Promise<never> | null = null;
  #reject: ((reason: unknown) => void) | null = null;

  get aborted(): boolean {
    return this.#stopped;
  }

  /** Why it stopped (undefined while it has not). */
  get reason(): unknown {
    return this.#reason;
  }

  /** A standard signal for code that takes one; already aborted if the attempt stopped. */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#stopped) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Stops the attempt once; later calls change nothing. */
  abort(reason: unknown): void {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    this.#reject?.(reason);
  }

  /** Rejects with the reason once the attempt stops: for racing a wait against the stop. */
  untilStopped(): Promise<never> {
    if (this.#stopped) return Promise.reject(this.#reason);
    this.#until ??= new Promise<never>((_, reject) => {
      this.#reject = reject;
    });
    return this.#until;
  }
}
