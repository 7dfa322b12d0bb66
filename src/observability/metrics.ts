// The server's Prometheus metrics (GET /metrics). Two kinds, both cheap to keep and to scrape:
// - counts of what is open now (runs, attempts, pending requests, ready depth per pool), read
//   from the store's indexes of live rows on each scrape (Store.countRuns, countTasks, ...), and
//   the pools' slots from the engine's memory;
// - counters and histograms of what happened since the process started (attempts by outcome,
//   their durations, retries, dead letters, runs ended, unit-of-work commit latency), kept as it
//   happens by the engine's observer and the event bus.
// Ended runs are counted as they end, not by status in the store: counting all of history by
// status would read every run ever kept, on every scrape.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import {
  type AttemptFacts,
  type AttemptOutcome,
  type Registry as EngineRegistry,
  type EventRecord,
  LIVE_TASK_STATUSES,
  OPEN_RUN_STATUSES,
  type StoreReader,
} from "../engine/index.ts";
import { AttemptMetrics } from "./attempt-metrics.ts";

/** What a scrape reads besides its own counters. */
export interface MetricsSources {
  store: StoreReader;
  registry: EngineRegistry;
  /** Open event streams (SSE subscribers); the HTTP layer owns them. */
  eventStreams(): number;
}

const ATTEMPT_SECONDS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600,
];
const COMMIT_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const RUN_ENDS: Record<string, string> = {
  "run.completed": "completed",
  "run.failed": "failed",
  "run.cancelled": "cancelled",
};

export class ServerMetrics {
  readonly registry = new Registry();
  #sources: MetricsSources | null = null;
  readonly #attempts = new AttemptMetrics(ATTEMPT_SECONDS);
  readonly #runsEnded: Counter<"status">;
  readonly #commitSeconds: Histogram;
  readonly #runs: Gauge<"status">;
  readonly #tasks: Gauge<"status">;
  readonly #requestsPending: Gauge;
  readonly #poolCapacity: Gauge<"pool">;
  readonly #poolInFlight: Gauge<"pool">;
  readonly #poolReady: Gauge<"pool">;
  readonly #eventStreams: Gauge;

  constructor(version: string) {
    const registers = [this.registry];
    const counter = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Counter<L>({ name, help, labelNames, registers });
    const gauge = <L extends string>(name: string, help: string, labelNames: L[]) =>
      new Gauge<L>({ name, help, labelNames, registers });
    this.#attempts.register(this.registry);
    this.#runsEnded = counter(
      "yardmaster_runs_ended_total",
      "Runs that ended since the server started, by status: completed, failed, cancelled.",
      ["status"],
    );
    this.#commitSeconds = new Histogram({
      name: "yardmaster_store_commit_seconds",
      help: "Time from a unit of work being queued to its transaction committed (group commit included).",
      buckets: COMMIT_SECONDS,
      registers,
    });
    this.#runs = gauge("yardmaster_runs", "Open runs in the store, by status.", ["status"]);
    this.#tasks = gauge(
      "yardmaster_tasks",
      "Attempts in the store that are ready, in progress or waiting on a person.",
      ["status"],
    );
    this.#requestsPending = gauge(
      "yardmaster_requests_pending",
      "Requests for human input a person can still answer.",
      [],
    );
    this.#poolCapacity = gauge("yardmaster_pool_capacity", "Slots of the pool.", ["pool"]);
    this.#poolInFlight = gauge(
      "yardmaster_pool_in_flight",
      "Slots of the pool leased to running attempts now.",
      ["pool"],
    );
    this.#poolReady = gauge(
      "yardmaster_pool_ready",
      "Ready attempts of queued and running runs waiting for a slot of the pool.",
      ["pool"],
    );
    this.#eventStreams = gauge(
      "yardmaster_event_streams",
      "Open GET /api/events streams (SSE subscribers).",
      [],
    );
    gauge("yardmaster_build_info", "Always 1; the version is a label.", ["version"])
      .labels(version)
      .set(1);
    collectDefaultMetrics({ register: this.registry });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Where scrapes read open counts from; until then only counters and process metrics. */
  watch(sources: MetricsSources): void {
    this.#sources = sources;
  }

  attemptEnded(attempt: AttemptFacts, outcome: AttemptOutcome, seconds: number): void {
    this.#attempts.observe(attempt.workflow, attempt.node, outcome.kind, seconds);
  }

  committed(ms: number): void {
    this.#commitSeconds.observe(ms / 1000);
  }

  runEvent(event: EventRecord): void {
    const status = RUN_ENDS[event.name];
    if (status) this.#runsEnded.labels(status).inc();
  }

  /** The metrics in the text exposition format, open counts read now. */
  async scrape(): Promise<string> {
    const sources = this.#sources;
    if (sources) {
      const { store } = sources;
      for (const status of OPEN_RUN_STATUSES) {
        this.#runs.labels(status).set(await store.countRuns(status));
      }
      for (const status of LIVE_TASK_STATUSES) {
        this.#tasks.labels(status).set(await store.countTasks(status));
      }
      this.#requestsPending.set(await store.countPendingRequests());
      const ready = await store.countReady();
      for (const pool of sources.registry.pools.values()) {
        const workflows = sources.registry.workflowsOnPool(pool.name);
        const depth = workflows.reduce((sum, w) => sum + (ready[w] ?? 0), 0);
        this.#poolCapacity.labels(pool.name).set(pool.capacity);
        this.#poolInFlight.labels(pool.name).set(pool.inFlight);
        this.#poolReady.labels(pool.name).set(depth);
      }
      this.#eventStreams.set(sources.eventStreams());
    }
    return this.registry.metrics();
  }
}
