// One server's telemetry: the engine's observer, fanning each attempt, commit and lifecycle
// moment out to the log (engine-log.ts), the metrics (metrics.ts) and the spans (tracing.ts),
// and a listener on the event bus for what happens to runs (submitted, ended), which the service
// decides as much as the engine does.
import { context } from "@opentelemetry/api";
import {
  type AttemptFacts,
  type AttemptOutcome,
  type AttemptWatch,
  type EngineObserver,
  type EventBus,
  isRemote,
} from "../engine/index.ts";
import { EngineLog } from "./engine-log.ts";
import type { Logger } from "./logger.ts";
import { type MetricsSources, ServerMetrics } from "./metrics.ts";
import { RunNames } from "./run-names.ts";
import { RunTracing } from "./tracing.ts";

export class Telemetry implements EngineObserver {
  readonly metrics: ServerMetrics;
  readonly #log: EngineLog;
  readonly #tracing: RunTracing;
  readonly #runs = new RunNames();

  constructor(logger: Logger, version: string) {
    this.metrics = new ServerMetrics(version);
    this.#log = new EngineLog(logger, this.#runs);
    this.#tracing = new RunTracing(version);
  }

  /** Starts following runs on the bus and lets scrapes read the store and the pools. */
  watch(bus: EventBus, sources: MetricsSources): void {
    this.metrics.watch(sources);
    bus.subscribe((event) => {
      if (event.run_id === null || !event.name.startsWith("run.")) return;
      // Another server's run events are that server's to log, count and trace.
      if (isRemote(event)) return;
      this.#tracing.runEvent(event);
      this.metrics.runEvent(event);
      this.#log.runEvent(event);
      this.#runs.follow(event);
    });
  }

  attemptStarted(attempt: AttemptFacts): AttemptWatch {
    const started = performance.now();
    this.#runs.note(attempt.runId, attempt.workflow);
    this.#log.attemptStarted(attempt);
    const traced = this.#tracing.startAttempt(attempt);
    return {
      within: traced ? (body) => context.with(traced.context, body) : (body) => body(),
      ended: (outcome: AttemptOutcome) => {
        const seconds = (performance.now() - started) / 1000;
        this.metrics.attemptEnded(attempt, outcome, seconds);
        if (traced) this.#tracing.endAttempt(traced.span, outcome);
        this.#log.attemptEnded(attempt, outcome, seconds);
      },
    };
  }

  committed(ms: number): void {
    this.metrics.committed(ms);
  }

  recovered(taskIds: readonly number[]): void {
    this.#log.recovered(taskIds);
  }

  registered(workflow: string, pool: string): void {
    this.#log.registered(workflow, pool);
  }

  stopping(taskIds: readonly number[]): void {
    this.#log.stopping(taskIds);
    this.#tracing.stopping();
  }
}
