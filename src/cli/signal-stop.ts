// Stopping `serve` on SIGINT/SIGTERM. The handlers are installed before the server starts:
// anyone who reads the ready line may signal at once, and a signal arriving before the
// handlers would kill the process without a clean stop. A second signal forces the exit. What
// happens is said in the server's log.

const SIGNALS: NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

/** Where the lines go: the server's logger. */
export interface StopLog {
  info(message: string): void;
  error(message: string): void;
}

export interface Stoppable {
  stop(reason?: string): Promise<void>;
}

export class SignalStop {
  #signal: NodeJS.Signals | null = null;
  #onFirst: ((signal: NodeJS.Signals) => void) | null = null;
  readonly #log: StopLog;
  readonly #handler = (signal: NodeJS.Signals) => this.#receive(signal);

  constructor(log: StopLog) {
    this.#log = log;
    for (const signal of SIGNALS) process.on(signal, this.#handler);
  }

  /** The signal already received, if one came while the server was starting. */
  get received(): NodeJS.Signals | null {
    return this.#signal;
  }

  /** Resolves with the exit code once a signal has stopped `server` (0 when stop succeeded). */
  stopOnSignal(server: Stoppable): Promise<number> {
    return new Promise<NodeJS.Signals>((resolve) => {
      if (this.#signal !== null) resolve(this.#signal);
      else this.#onFirst = resolve;
    })
      .then((signal) => server.stop(signal))
      .then(
        () => 0,
        (error: unknown) => {
          this.#log.error(`yardmaster serve: stop failed: ${(error as Error)?.message ?? error}`);
          return 1;
        },
      )
      .finally(() => this.dispose());
  }

  dispose(): void {
    for (const signal of SIGNALS) process.off(signal, this.#handler);
  }

  #receive(signal: NodeJS.Signals): void {
    if (this.#signal !== null) {
      this.#log.error(`${signal} again: exiting without waiting`);
      process.exit(1);
    }
    this.#signal = signal;
    this.#log.info(`${signal} received: stopping`);
    this.#onFirst?.(signal);
  }
}
