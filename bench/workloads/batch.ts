// W1, W1F, W3, W4: a batch of runs submitted at once over HTTP (a bounded number of requests in
// flight), timed from the first submit to the last `run.completed` seen on the event stream.
import { endedBy, lastEnd, submitBatches, submitMany } from "../completions.ts";
import { BLANK, type Figure, round } from "../figures.ts";
import type { BenchOptions } from "../options.ts";
import { benchStore } from "../postgres-bench.ts";
import { cpuTimes } from "../quiet.ts";
import { threadsDelta } from "../server-handle.ts";
import { diagnostics, type Session, withSession } from "../session.ts";

function cpuMsOf(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

interface Batch {
  workload: string;
  workflow: "chain3" | "fan" | "nap" | "napfan";
  runs: number;
  /** Attempts one run makes (for steps/s). */
  steps: number;
  capacity: number;
  title: string;
  synchronous?: "FULL";
  /** Runs per batch request (`POST .../runs/batch`); absent: one submit request per run. */
  batchSize?: number;
}

interface BatchResult {
  wallMs: number;
  /** Server CPU time over the measured window (all its threads, then its main thread). */
  cpuMs: number;
  mainThreadCpuMs: number;
  /** Time the server's main thread was ready to run but waited for a CPU. */
  mainThreadWaitMs: number;
  /** The server's CPU over the window by thread name (`threadsDelta`). */
  threads: string;
  /** CPU time of the PostgreSQL cluster over the window (0 on SQLite). */
  storeCpuMs: number;
  /** CPU time of this driver (load generator and event-stream reader) over the window. */
  driverCpuMs: number;
  /** CPU time every process on the machine used over the window. */
  machineCpuMs: number;
  /** Bytes the server sent to storage over the measured window. */
  diskBytes: number;
  submitMs: number;
  /** Runs whose end arrived before the last submit was answered. */
  endedWhileSubmitting: number;
  rssMib: number;
  failed: number;
  storeBytes: number;
}

/** One round: the batch submitted at once and waited for, on the session's server. */
async function runRound(s: Session, options: BenchOptions, batch: Batch): Promise<BatchResult> {
  const cpuBefore = s.server.cpuMs();
  const storeBefore = s.server.storeCpuMs();
  const mainBefore = s.server.mainThreadCpuMs();
  const waitBefore = s.server.mainThreadWaitMs();
  const threadsBefore = s.server.threadsCpuMs();
  const driverBefore = process.cpuUsage();
  const machineBefore = cpuTimes().busy;
  const diskBefore = s.server.diskBytes();
  const title = () => batch.title;
  const sent = batch.batchSize
    ? await submitBatches(s.client, batch.workflow, batch.runs, batch.batchSize, title)
    : await submitMany(s.client, batch.workflow, batch.runs, options.inFlight, title);
  const ids = [...sent.sentAt.keys()];
  await s.completions.waitFor(ids, options.timeoutMs);
  return {
    wallMs: lastEnd(s.completions, ids) - sent.firstSentAt,
    cpuMs: s.server.cpuMs() - cpuBefore,
    mainThreadCpuMs: s.server.mainThreadCpuMs() - mainBefore,
    storeCpuMs: s.server.storeCpuMs() - storeBefore,
    mainThreadWaitMs: s.server.mainThreadWaitMs() - waitBefore,
    threads: threadsDelta(threadsBefore, s.server.threadsCpuMs()),
    driverCpuMs: cpuMsOf(process.cpuUsage(driverBefore)),
    machineCpuMs: (cpuTimes().busy - machineBefore) * 10,
    diskBytes: s.server.diskBytes() - diskBefore,
    submitMs: sent.lastAnsweredAt - sent.firstSentAt,
    endedWhileSubmitting: endedBy(s.completions, ids, sent.lastAnsweredAt),
    rssMib: s.server.peakRssMib(),
    failed: ids.filter((id) => s.completions.failed.has(id)).length,
    storeBytes: 0,
  };
}

/**
 * The batch on a fresh server (cold: its first runs, V8 still compiling the hot paths), then,
 * unless BENCH_WARM=0, the same batch again on the same server (warm: what a server that has
 * been up a while does). Store size is per 1,000 of all the runs the file holds.
 */
async function runBatch(options: BenchOptions, batch: Batch, rep: number): Promise<BatchResult[]> {
  const spec = {
    pools: { bench: batch.capacity },
    workflows: { [batch.workflow]: "bench" },
    synchronous: batch.synchronous,
    ...diagnostics(options, `${batch.workload}-${rep}`),
  };
  const { value, storeBytes } = await withSession(spec, async (s) => {
    const rounds = [await runRound(s, options, batch)];
    if (options.warm) rounds.push(await runRound(s, options, batch));
    return rounds;
  });
  const perRound = storeBytes / value.length;
  return value.map((round) => ({ ...round, storeBytes: perRound }));
}

function throughput(batch: Batch, r: BatchResult): Figure {
  return {
    workload: batch.workload,
    ...BLANK,
    runs_per_s: round((batch.runs * 1000) / r.wallMs),
    steps_per_s: round((batch.runs * batch.steps * 1000) / r.wallMs),
    rss_mib: round(r.rssMib),
    runs: batch.runs,
    wall_ms: round(r.wallMs),
    server_cpu_pct: round((100 * r.cpuMs) / r.wallMs),
    main_thread_cpu_pct: round((100 * r.mainThreadCpuMs) / r.wallMs),
    main_thread_wait_pct: round((100 * r.mainThreadWaitMs) / r.wallMs),
    thread_cpu_ms: r.threads,
    driver_cpu_pct: round((100 * r.driverCpuMs) / r.wallMs),
    machine_cpu_pct: round((100 * r.machineCpuMs) / r.wallMs),
    steps_per_cpu_s: round((batch.runs * batch.steps * 1000) / r.cpuMs),
    server_cpu_us_per_run: round((r.cpuMs * 1000) / batch.runs),
    store_cpu_pct: round((100 * r.storeCpuMs) / r.wallMs),
    // Yardmaster's and the PostgreSQL cluster's CPU together, per step (issue 22).
    cpu_ms_per_step: round((r.cpuMs + r.storeCpuMs) / (batch.runs * batch.steps)),
    disk_bytes_per_step: round(r.diskBytes / (batch.runs * batch.steps)),
    submit_ms: round(r.submitMs),
    ended_while_submitting: r.endedWhileSubmitting,
    failed: r.failed,
    store_kib_per_1000_runs: round(r.storeBytes / 1024 / (batch.runs / 1000)),
  };
}

/** A figure per round: the workload's name for the cold one, `-warm` after it for the next. */
function figures(batch: Batch, results: BatchResult[], extra: Partial<Figure>): Figure[] {
  return results.map((r, i) => {
    const workload = i === 0 ? batch.workload : `${batch.workload}-warm`;
    return { ...throughput({ ...batch, workload }, r), ...extra };
  });
}

/**
 * W1B: W1's runs submitted in two batch requests instead of one request each, so its server
 * CPU per run beside W1's is what the batch endpoint saves.
 */
export async function w1b(options: BenchOptions, rep: number): Promise<Figure[]> {
  const batch: Batch = {
    workload: "W1B",
    workflow: "chain3",
    runs: options.w1.runs,
    steps: 3,
    capacity: options.w1.capacity,
    title: "chain",
    batchSize: Math.ceil(options.w1.runs / 2),
  };
  return figures(batch, await runBatch(options, batch, rep), { note: "2 batch submits" });
}

export async function w1(options: BenchOptions, rep: number, full = false): Promise<Figure[]> {
  const batch: Batch = {
    workload: full ? "W1F" : "W1",
    workflow: "chain3",
    runs: options.w1.runs,
    steps: 3,
    capacity: options.w1.capacity,
    title: "chain",
    synchronous: full ? "FULL" : undefined,
  };
  const sqliteNote = full ? "synchronous=FULL" : "synchronous=NORMAL";
  const note = benchStore() === "postgres" ? "postgres, synchronous_commit=on" : sqliteNote;
  return figures(batch, await runBatch(options, batch, rep), { note });
}

export async function w3(options: BenchOptions, rep: number): Promise<Figure[]> {
  const { runs, width, capacity } = options.w3;
  const batch: Batch = {
    workload: "W3",
    workflow: "fan",
    runs,
    steps: width + 2,
    capacity,
    title: String(width),
  };
  return figures(batch, await runBatch(options, batch, rep), { note: `fan-out ${width}` });
}

/**
 * W4's ideal: whole waves of `capacity` sleeps, ceil(400 / 64) = 7 waves of 50 ms. No engine can
 * finish sooner: the seventh wave's 16 sleeps start only after a slot's sixth sleep ended.
 */
export function wholeWaveIdealMs(o: BenchOptions): number {
  return Math.ceil(o.w4.attempts / o.w4.capacity) * o.w4.sleepMs;
}

/**
 * Two readings of "400 attempts sleeping 50 ms on 64 slots": 400 one-node runs submitted at
 * once over HTTP (W4: the submissions are part of the wall time, as for W1), and one run whose
 * start node fans out to the 400 sleeps (W4-fan: one submit, so it isolates the dispatcher).
 */
export async function w4(options: BenchOptions, rep: number): Promise<Figure[]> {
  const { attempts, sleepMs, capacity } = options.w4;
  const idealMs = wholeWaveIdealMs(options);
  const shape = `${attempts} x ${sleepMs} ms on ${capacity} slots`;
  const runs: Batch = {
    workload: "W4",
    workflow: "nap",
    runs: attempts,
    steps: 1,
    capacity,
    title: String(sleepMs),
  };
  const fan: Batch = {
    workload: "W4-fan",
    workflow: "napfan",
    runs: 1,
    steps: attempts + 1,
    capacity,
    title: `${attempts}x${sleepMs}`,
  };
  const out: Figure[] = [];
  for (const [batch, note] of [
    [runs, `${shape}, one run each`],
    [fan, `${shape}, one fanned-out run`],
  ] as const) {
    const results = await runBatch(options, batch, rep);
    for (const [i, figure] of figures(batch, results, { note }).entries()) {
      out.push({ ...figure, ratio: round(results[i].wallMs / idealMs), ideal_ms: round(idealMs) });
    }
  }
  return out;
}
