// The attempt metrics (count, duration histogram, retries, dead letters by workflow and node),
// kept in plain records and written out only when scraped. An attempt ends on the engine's hot
// path; prom-client validates and hashes the label values on every update (a labelled child as
// much as the metric itself), which a W1 profile showed as the largest part of the telemetry's
// cost. Here an attempt's end is three map lookups on strings the engine already holds and a
// few additions; the four metrics are derived from the same records at scrape time, through
// prom-client's registry (any object with `name` and `get()` can be registered), so the
// exposition format stays prom-client's own.
import type { Registry } from "prom-client";

interface Series {
  readonly workflow: string;
  readonly node: string;
  readonly outcome: string;
  count: number;
  sum: number;
  /** Observations per bucket, not cumulative: `perBucket[i]` counts values in (bound[i-1], bound[i]]. */
  readonly perBucket: number[];
}

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

/** What prom-client's registry reads of a metric it did not make. */
interface ScrapedMetric {
  name: string;
  help: string;
  type: "counter" | "histogram";
  aggregator: "sum";
  get(): Promise<{
    name: string;
    help: string;
    type: string;
    aggregator: "sum";
    values: Sample[];
  }>;
  reset(): void;
}

export class AttemptMetrics {
  readonly #bounds: readonly number[];
  /** workflow -> node -> outcome -> series. */
  readonly #series = new Map<string, Map<string, Map<string, Series>>>();

  constructor(bounds: readonly number[]) {
    this.#bounds = bounds;
  }

  observe(workflow: string, node: string, outcome: string, seconds: number): void {
    let nodes = this.#series.get(workflow);
    if (!nodes) {
      nodes = new Map();
      this.#series.set(workflow, nodes);
    }
    let outcomes = nodes.get(node);
    if (!outcomes) {
      outcomes = new Map();
      nodes.set(node, outcomes);
    }
    let series = outcomes.get(outcome);
    if (!series) {
      series = {
        workflow,
        node,
        outcome,
        count: 0,
        sum: 0,
        perBucket: new Array(this.#bounds.length).fill(0),
      };
      outcomes.set(outcome, series);
    }
    series.count += 1;
    series.sum += seconds;
    const bounds = this.#bounds;
    for (let i = 0; i < bounds.length; i++) {
      if (seconds <= (bounds[i] as number)) {
        (series.perBucket[i] as number) += 1;
        break;
      }
    }
  }

  /** Registers the four metrics; each is derived from the records when scraped. */
  register(registry: Registry): void {
    const all = () => this.#all();
    const counter = (name: string, help: string, values: () => Sample[]): ScrapedMetric =>
      scraped(name, help, "counter", values);
    registry.registerMetric(
      counter(
        "yardmaster_attempts_total",
        "Attempts ended, by outcome: done, retry, dead_letter, stopped, discarded, unrecorded.",
        () => all().map((s) => ({ value: s.count, labels: seriesLabels(s) })),
      ) as never,
    );
    registry.registerMetric(
      scraped(
        "yardmaster_attempt_duration_seconds",
        "Wall-clock time of an attempt in this process, from its start to its recorded outcome.",
        "histogram",
        () => all().flatMap((s) => this.#histogramSamples(s)),
      ) as never,
    );
    registry.registerMetric(
      counter("yardmaster_retries_total", "Failed attempts for which a retry was queued.", () =>
        perNode(all(), "retry"),
      ) as never,
    );
    registry.registerMetric(
      counter(
        "yardmaster_dead_letters_total",
        "Attempts dead-lettered by the engine (retries exhausted, NonRetryable, GraphError).",
        () => perNode(all(), "dead_letter"),
      ) as never,
    );
  }

  #all(): Series[] {
    const out: Series[] = [];
    for (const nodes of this.#series.values()) {
      for (const outcomes of nodes.values()) out.push(...outcomes.values());
    }
    return out;
  }

  #histogramSamples(series: Series): Sample[] {
    const name = "yardmaster_attempt_duration_seconds";
    const labels = seriesLabels(series);
    const samples: Sample[] = [];
    let cumulative = 0;
    this.#bounds.forEach((bound, i) => {
      cumulative += series.perBucket[i] as number;
      samples.push({
        metricName: `${name}_bucket`,
        value: cumulative,
        labels: { ...labels, le: bound },
      });
    });
    samples.push(
      { metricName: `${name}_bucket`, value: series.count, labels: { ...labels, le: "+Inf" } },
      { metricName: `${name}_sum`, value: series.sum, labels },
      { metricName: `${name}_count`, value: series.count, labels },
    );
    return samples;
  }
}

const seriesLabels = (s: Series) => ({ workflow: s.workflow, node: s.node, outcome: s.outcome });

/** One counter sample per workflow and node that had attempts with this outcome. */
function perNode(all: Series[], outcome: string): Sample[] {
  return all
    .filter((s) => s.outcome === outcome)
    .map((s) => ({ value: s.count, labels: { workflow: s.workflow, node: s.node } }));
}

function scraped(
  name: string,
  help: string,
  type: "counter" | "histogram",
  values: () => Sample[],
): ScrapedMetric {
  return {
    name,
    help,
    type,
    aggregator: "sum",
    get: async () => ({ name, help, type, aggregator: "sum", values: values() }),
    // The records are the process's history since it started, as prom-client's own are.
    reset: () => {},
  };
}
