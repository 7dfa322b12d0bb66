// How an agent session can end badly. `reason` is the AgentStats reason (http-api.md "Other");
// every AgentFailure is an ordinary, retryable failure of the attempt: a fresh agent session
// may well do better, and the node's `retries` decides how often that is tried.
import { describeError, isNodeTimeout, isNonRetryable } from "../authoring/index.ts";
import { isInterrupt } from "../engine/index.ts";
import { type AgentProcess, describeExit } from "./agent-process.ts";

export type AgentReason =
  | "refusal"
  | "cancelled"
  | "truncated"
  | "timeout"
  | "shutdown"
  | "transport"
  | "no_submission";

export class AgentFailure extends Error {
  constructor(
    readonly reason: AgentReason,
    message: string,
  ) {
    super(`${message} (${reason})`);
    this.name = "AgentFailure";
  }
}

/** The stats reason of a session that ended because of `err`. */
export function reasonOf(err: unknown): AgentReason {
  if (err instanceof AgentFailure) return err.reason;
  if (isNodeTimeout(err)) return "timeout";
  if (isInterrupt(err)) return err.reason === "shutdown" ? "shutdown" : "cancelled";
  return "transport";
}

/** What the prompt turn's stop reason means when no valid submission was made. */
export function stopFailure(stopReason: string, agent: string): AgentFailure {
  if (stopReason === "refusal") return new AgentFailure("refusal", `agent ${agent} refused`);
  if (stopReason === "cancelled") {
    return new AgentFailure("cancelled", `agent ${agent} cancelled its turn`);
  }
  return new AgentFailure("truncated", `agent ${agent} stopped early: ${stopReason}`);
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

/**
 * The error a session that threw `err` fails the attempt with: the stop's reason when it was
 * stopped, the failure itself when it is one, else a transport failure (a closed connection,
 * a protocol error) that says how the process ended.
 */
export async function failureOf(
  err: unknown,
  stop: AbortSignal,
  proc: AgentProcess | null,
  agent: string,
): Promise<unknown> {
  if (stop.aborted) return stop.reason;
  if (err instanceof AgentFailure || isNonRetryable(err)) return err;
  // A closed connection usually means the process is exiting: let its exit status be known.
  if (proc && !proc.exitInfo()) await Promise.race([proc.exited, delay(250)]);
  const exit = proc ? `; ${describeExit(proc.exitInfo(), proc.stderrTail())}` : "";
  return new AgentFailure("transport", `agent ${agent}: ${describeError(err)}${exit}`);
}
