// What the engine tells an observer (logs, metrics, traces; src/observability/ implements it):
// each attempt's start and end, the latency of each unit of work, and the lifecycle moments an
// operator reads a log for. The engine knows nothing of loggers or exporters. Calls are on the
// hot path (every attempt, every commit), so the default observer does nothing and allocates
// nothing, and an observer must stay cheap and never throw.

/** Who an attempt is: enough to label a metric or a log line without a store read. */
export interface AttemptFacts {
  runId: string;
  taskId: number;
  workflow: string;
  node: string;
  attempt: number;
  pool: string;
}

/**
 * How an attempt ended, as recorded: `done`, `retry` (failed, another attempt queued),
 * `dead_letter`; `stopped` when an operation or a shutdown interrupted it (`reason` says which);
 * `discarded` when its result arrived after an operator had revoked the attempt; `unrecorded`
 * when writing the outcome itself failed.
 */
export type AttemptOutcome =
  | { kind: "done" }
  | { kind: "retry" | "dead_letter"; error: string }
  | { kind: "stopped"; reason: string }
  | { kind: "discarded" }
  | { kind: "unrecorded"; error: string };

export interface AttemptWatch {
  /** Runs the body inside the attempt's context (a trace span's, so its own spans nest). */
  within<T>(body: () => T): T;
  ended(outcome: AttemptOutcome): void;
}

export interface EngineObserver {
  attemptStarted(attempt: AttemptFacts): AttemptWatch;
  /** A unit of work committed `ms` after it was queued (waiting, running and committing). */
  committed(ms: number): void;
  /** Start-up reset these attempts, left in progress by the last process, to ready. */
  recovered(taskIds: readonly number[]): void;
  registered(workflow: string, pool: string): void;
  /** The engine is stopping; these live attempts are interrupted (recovery re-runs them). */
  stopping(taskIds: readonly number[]): void;
}

const NO_WATCH: AttemptWatch = {
  within: (body) => body(),
  ended: () => {},
};

export const NO_OBSERVER: EngineObserver = {
  attemptStarted: () => NO_WATCH,
  committed: () => {},
  recovered: () => {},
  registered: () => {},
  stopping: () => {},
};
