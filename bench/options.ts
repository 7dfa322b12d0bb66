// Sizes and switches of the benchmark, from the environment. The defaults are the workloads of
// issue 8; BENCH_QUICK=1 divides every size by ten (a smoke check, not a measurement), and any
// BENCH_* variable below overrides one size.
import { join } from "node:path";

export const WORKLOADS = ["W1", "W1B", "W1F", "W2", "W3", "W4", "W5"] as const;
export type WorkloadName = (typeof WORKLOADS)[number];

export interface BenchOptions {
  workloads: WorkloadName[];
  quick: boolean;
  /** Repetitions per workload; figures are the median over them. */
  repeat: number;
  /** Requests in flight while submitting a batch. */
  inFlight: number;
  /** Bound of every wait for runs to end, per workload. */
  timeoutMs: number;
  /** Where V8 CPU profiles of the server go, or null for none. */
  profileDir: string | null;
  /** Where store call counts (BENCH_TRACE=1) go, or null for none. */
  traceDir: string | null;
  /** Where per-attempt, per-run, GC, event-loop and memory records (BENCH_LATENCY=1) go. */
  latencyDir: string | null;
  /** The JSON report (BENCH_OUT, default bench/results/latest.json). */
  outFile: string;
  /** Batch workloads run a second, warm round on the same server (BENCH_WARM=0: off). */
  warm: boolean;
  /** Before each repetition, wait until at most this share of the CPUs is busy (1 = never). */
  quietShare: number;
  quietWaitMs: number;
  w1: { runs: number; capacity: number };
  w2: { rate: number; seconds: number; warmupSeconds: number; capacity: number };
  w3: { runs: number; width: number; capacity: number };
  w4: { attempts: number; sleepMs: number; capacity: number };
  w5: { runs: number; subscribers: number; events: number; lists: number; gets: number };
}

const RESULTS = join(import.meta.dirname, "results");

function int(name: string, fallback: number, quick: boolean, divide = true, min = 1): number {
  const raw = process.env[name];
  if (raw !== undefined && raw !== "") {
    const value = Number(raw);
    if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be at least ${min}`);
    return value;
  }
  return quick && divide ? Math.max(1, Math.round(fallback / 10)) : fallback;
}

function pickWorkloads(args: string[]): WorkloadName[] {
  if (args.length === 0) return [...WORKLOADS];
  const picked = args.map((a) => a.toUpperCase());
  const unknown = picked.filter((a) => !(WORKLOADS as readonly string[]).includes(a));
  if (unknown.length) {
    throw new Error(`unknown workload ${unknown.join(", ")}; choose from ${WORKLOADS.join(", ")}`);
  }
  return picked as WorkloadName[];
}

/** BENCH_PROFILE / BENCH_TRACE: unset or 0 is off, 1 is the default folder, else a folder. */
function outputDir(variable: string, folder: string): string | null {
  const raw = process.env[variable];
  if (!raw || raw === "0") return null;
  return raw === "1" ? join(RESULTS, folder) : raw;
}

/**
 * BENCH_SCRAPE_MS: every session scrapes GET /metrics this often, as Prometheus would, to show
 * what scraping costs the workloads; unset or 0: no scraping.
 */
export function scrapeInterval(): number | null {
  const ms = Number(process.env.BENCH_SCRAPE_MS ?? 0);
  return Number.isFinite(ms) && ms > 0 ? ms : null;
}

export function readOptions(args: string[]): BenchOptions {
  const q = process.env.BENCH_QUICK === "1";
  return {
    workloads: pickWorkloads(args),
    quick: q,
    repeat: int("BENCH_REPEAT", 1, q, false),
    inFlight: int("BENCH_IN_FLIGHT", 64, q, false),
    timeoutMs: int("BENCH_TIMEOUT_S", 300, q, false) * 1000,
    profileDir: outputDir("BENCH_PROFILE", "profiles"),
    traceDir: outputDir("BENCH_TRACE", "traces"),
    latencyDir: outputDir("BENCH_LATENCY", "latency"),
    outFile: process.env.BENCH_OUT || join(RESULTS, "latest.json"),
    warm: process.env.BENCH_WARM !== "0",
    quietShare: Number(process.env.BENCH_QUIET ?? 1),
    quietWaitMs: int("BENCH_QUIET_WAIT_S", 600, q, false) * 1000,
    w1: { runs: int("BENCH_W1_RUNS", 2000, q), capacity: int("BENCH_W1_CAPACITY", 8, q, false) },
    w2: {
      rate: int("BENCH_W2_RATE", 100, q, false),
      seconds: int("BENCH_W2_SECONDS", 10, q),
      warmupSeconds: int("BENCH_W2_WARMUP_S", 1, q, false, 0),
      capacity: int("BENCH_W2_CAPACITY", 8, q, false),
    },
    w3: {
      runs: int("BENCH_W3_RUNS", 100, q),
      width: int("BENCH_W3_WIDTH", 20, q, false),
      capacity: int("BENCH_W3_CAPACITY", 8, q, false),
    },
    w4: {
      attempts: int("BENCH_W4_ATTEMPTS", 400, q),
      sleepMs: int("BENCH_W4_SLEEP_MS", 50, q, false),
      capacity: int("BENCH_W4_CAPACITY", 64, q, false),
    },
    w5: {
      runs: int("BENCH_W5_RUNS", 10_000, q),
      subscribers: int("BENCH_W5_SUBSCRIBERS", 500, q),
      events: int("BENCH_W5_EVENTS", 20, q),
      lists: int("BENCH_W5_LISTS", 20, q),
      gets: int("BENCH_W5_GETS", 200, q),
    },
  };
}
