// When an agent session must stop: the attempt was stopped (its abort signal: cancel, move, node
// timeout, shutdown), or the agent's own timeout expired (waiting time included). Either way the
// agent is sent `session/cancel` at once. `guard` races any step of the conversation against the
// stop and against the process exiting early, so no step can outlive the session.
import { AgentFailure } from "./agent-failure.ts";
import { type AgentProcess, describeExit } from "./agent-process.ts";

const never = new Promise<never>(() => {});
const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class StopSignal {
  readonly #ctrl = new AbortController();
  readonly #stopped: Promise<never>;
  readonly #onLive: () => void;
  #exit: Promise<never> = never;
  #timer: NodeJS.Timeout | null = null;
  /** Set once the session exists, so that a stop can cancel it. */
  sessionId: string | null = null;

  constructor(
    private readonly live: AbortSignal,
    timeoutS: number | null,
    private readonly agent: string,
    private readonly cancel: (sessionId: string) => void,
  ) {
    this.#stopped = new Promise<never>((_, reject) => {
      this.#ctrl.signal.addEventListener("abort", () => reject(this.#ctrl.signal.reason), {
        once: true,
      });
    });
    this.#stopped.catch(() => {});
    this.#onLive = () => this.halt(live.reason);
    if (live.aborted) this.halt(live.reason);
    else live.addEventListener("abort", this.#onLive, { once: true });
    if (timeoutS !== null) {
      const expire = () =>
        this.halt(new AgentFailure("timeout", `agent ${agent} ran out of its ${timeoutS}s`));
      this.#timer = setTimeout(expire, timeoutS * 1000);
    }
  }

  get signal(): AbortSignal {
    return this.#ctrl.signal;
  }

  halt(reason: unknown): void {
    if (this.#ctrl.signal.aborted) return;
    this.#ctrl.abort(reason);
    if (this.sessionId !== null) this.cancel(this.sessionId);
  }

  /** From now on, the process exiting fails every guarded step (a transport failure). */
  watchExit(proc: AgentProcess): void {
    this.#exit = proc.exited.then(async (info) => {
      // Give stderr a moment to deliver the agent's last words.
      await Promise.race([proc.drained, delay(200)]);
      const why = describeExit(info, proc.stderrTail());
      throw new AgentFailure("transport", `agent ${this.agent} ended early: ${why}`);
    });
    this.#exit.catch(() => {});
  }

  guard<T>(step: Promise<T>): Promise<T> {
    if (this.#ctrl.signal.aborted) {
      step.catch(() => {});
      return Promise.reject(this.#ctrl.signal.reason);
    }
    return Promise.race([step, this.#stopped, this.#exit]);
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.live.removeEventListener("abort", this.#onLive);
  }
}
