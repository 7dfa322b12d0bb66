// BENCH_LATENCY: where the measured server's latency goes, recorded inside the server process
// and written as JSON when it stops (bench/server-process.ts installs it; off unless asked):
// - every attempt: when it started, when its body returned, when its outcome committed (the
//   engine observer's `attemptStarted`/`within`/`ended`), so a batch workload shows each
//   attempt's hand-off lateness (its start after the body end that freed the slot);
// - every run: when `run.created` and `run.completed` were published (after their commits),
//   and its attempts, so the slowest runs can be split into segments;
// - every unit of work's commit latency (queued to committed), the SQLite store's transactions
//   and the units they held (the largest since the server started), the event-loop delay
//   (`monitorEventLoopDelay`, 1 ms resolution), every GC pause, and `process.memoryUsage()`
//   sampled every 25 ms (peak of each part).
// `node --import tsx bench/latency-summary.ts <file.json>` prints what it says.
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics } from "node:v8";
import type { AttemptFacts, AttemptWatch, EngineObserver } from "../src/engine/index.ts";

interface Probed {
  observer: EngineObserver;
  /** The SQLite store's commit counts (src/stores/sqlite/index.ts), when it has them. */
  store: unknown;
  bus: { subscribe(fn: (event: { name: string; run_id: string | null }) => void): () => void };
}

export interface AttemptTimes {
  run: string;
  node: string;
  start: number;
  bodyEnd: number | null;
  end: number | null;
}

export interface LatencyRecord {
  attempts: AttemptTimes[];
  runs: Record<string, { created?: number; completed?: number }>;
  commits: number[];
  /** Transactions the SQLite store committed while the probe ran, and the units they held. */
  transactions: { count: number; units: number; largest: number } | null;
  gc: Array<{ at: number; ms: number; kind: number }>;
  loopDelay: { p50: number; p99: number; max: number; mean: number };
  memory: {
    samples: number;
    peak: Record<string, number>;
    /** `process.memoryUsage()` and V8's heap spaces (committed MiB) when RSS peaked. */
    atPeakRss: Record<string, number>;
  };
}

const MIB = 2 ** 20;

export function installLatencyProbe(engine: Probed): () => LatencyRecord {
  const now = () => performance.now();
  const attempts: AttemptTimes[] = [];
  const runs: LatencyRecord["runs"] = {};
  const commits: number[] = [];
  const gc: LatencyRecord["gc"] = [];
  const observer = engine.observer;
  type Counts = { count: number; units: number; largest: number };
  const counts = (engine.store as { commits?: Counts }).commits;
  const countsBefore = counts ? { ...counts } : null;
  const started = observer.attemptStarted.bind(observer);
  observer.attemptStarted = (facts: AttemptFacts): AttemptWatch => {
    const times: AttemptTimes = {
      run: facts.runId,
      node: facts.node,
      start: now(),
      bodyEnd: null,
      end: null,
    };
    attempts.push(times);
    const watch = started(facts);
    return {
      within: (body) => {
        const value = watch.within(body);
        const mark = () => {
          times.bodyEnd = now();
        };
        if (value instanceof Promise) value.then(mark, mark);
        else mark();
        return value;
      },
      ended: (outcome) => {
        times.end = now();
        watch.ended(outcome);
      },
    };
  };
  const committed = observer.committed.bind(observer);
  observer.committed = (ms) => {
    commits.push(ms);
    committed(ms);
  };
  engine.bus.subscribe((event) => {
    if (event.run_id === null) return;
    if (event.name !== "run.created" && event.name !== "run.completed") return;
    const times = runs[event.run_id] ?? {};
    runs[event.run_id] = times;
    if (event.name === "run.created") times.created = now();
    else times.completed = now();
  });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const gcWatch = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
      gc.push({ at: entry.startTime, ms: entry.duration, kind });
    }
  });
  gcWatch.observe({ entryTypes: ["gc"] });
  const peak: Record<string, number> = {};
  let atPeakRss: Record<string, number> = {};
  let samples = 0;
  const sample = () => {
    const m = process.memoryUsage() as unknown as Record<string, number>;
    samples += 1;
    for (const [k, v] of Object.entries(m)) peak[k] = Math.max(peak[k] ?? 0, v / MIB);
    if (m.rss / MIB >= (atPeakRss.rss ?? 0)) {
      atPeakRss = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v / MIB]));
      for (const space of getHeapSpaceStatistics()) {
        atPeakRss[space.space_name] = space.physical_space_size / MIB;
      }
    }
  };
  const sampler = setInterval(sample, 25);
  sampler.unref();
  return () => {
    clearInterval(sampler);
    sample();
    loop.disable();
    gcWatch.disconnect();
    const ms = (ns: number) => ns / 1e6;
    return {
      attempts,
      runs,
      commits,
      transactions:
        counts && countsBefore
          ? {
              count: counts.count - countsBefore.count,
              units: counts.units - countsBefore.units,
              largest: counts.largest,
            }
          : null,
      gc,
      loopDelay: {
        p50: ms(loop.percentile(50)),
        p99: ms(loop.percentile(99)),
        max: ms(loop.max),
        mean: ms(loop.mean),
      },
      memory: { samples, peak, atPeakRss },
    };
  };
}
