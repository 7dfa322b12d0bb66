// W1-W4 measured on a peer with the semantics of bench/workloads/batch.ts and latency.ts: the
// batch submitted at once (64 enqueues in flight) and timed from the first enqueue to the last
// run's end, or (W2) enqueued open loop at a fixed rate after a warm-up, latency from the
// enqueue sent to the run's end. CPU is the worker process's and the store's (the cluster or
// redis-server) over the window; RSS is the worker process's peak.
import { BLANK, type Figure, latencies, round } from "../figures.ts";
import type { BenchOptions } from "../options.ts";
import { threadsDelta } from "../server-handle.ts";
import { wholeWaveIdealMs } from "../workloads/batch.ts";
import { openPeer, type PeerSession, type SessionSpec } from "./drivers.ts";
import type { Peer, Workflow } from "./protocol.ts";

export type PeerWorkload = "W1" | "W2" | "W3" | "W4";

interface Shape {
  workflow: Workflow;
  runs: number;
  steps: number;
  capacity: number;
}

function shape(workload: PeerWorkload, o: BenchOptions): Shape {
  if (workload === "W1")
    return { workflow: "chain3", runs: o.w1.runs, steps: 3, capacity: o.w1.capacity };
  if (workload === "W2") {
    const runs = Math.round(o.w2.rate * o.w2.seconds);
    return { workflow: "chain3", runs, steps: 3, capacity: o.w2.capacity };
  }
  if (workload === "W3") {
    const { runs, width, capacity } = o.w3;
    return { workflow: "fan", runs, steps: width + 2, capacity };
  }
  return { workflow: "nap", runs: o.w4.attempts, steps: 1, capacity: o.w4.capacity };
}

let runNumber = 0;
const runId = () => `r${process.pid}x${++runNumber}`;

/** Enqueues `count` runs, `inFlight` at a time; answers their ids and when the first left. */
async function submitMany(s: PeerSession, count: number, inFlight: number) {
  const ids = Array.from({ length: count }, runId);
  let next = 0;
  const firstSentAt = performance.now();
  const lane = async () => {
    while (next < ids.length) await s.submit(ids[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, lane));
  return { ids, firstSentAt, lastAnsweredAt: performance.now() };
}

/** Sends `count` enqueues, the i-th at start + i / rate seconds (catching up if late). */
async function pace(s: PeerSession, rate: number, count: number) {
  const sentAt = new Map<string, number>();
  const sends: Array<Promise<void>> = [];
  let errors = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const wait = start + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const id = runId();
    const sent = performance.now();
    sends.push(
      s.submit(id).then(
        () => {
          sentAt.set(id, sent);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(sends);
  return { sentAt, errors };
}

function usage(s: PeerSession) {
  const cpu = s.cpuMs();
  const store = s.storeCpuMs();
  const threads = s.threadsCpuMs();
  const driver = process.cpuUsage();
  return () => ({
    driverCpuMs: (({ user, system }) => (user + system) / 1000)(process.cpuUsage(driver)),
    cpuMs: s.cpuMs() - cpu,
    storeCpuMs: s.storeCpuMs() - store,
    threads: threadsDelta(threads, s.threadsCpuMs()),
  });
}

async function batch(s: PeerSession, workload: PeerWorkload, sh: Shape, o: BenchOptions) {
  const used = usage(s);
  const sent = await submitMany(s, sh.runs, o.inFlight);
  await s.waitFor(sent.ids, o.timeoutMs);
  const lastEnd = Math.max(...sent.ids.map((id) => s.ended.get(id)!));
  const wallMs = lastEnd - sent.firstSentAt;
  const { cpuMs, storeCpuMs, threads, driverCpuMs } = used();
  const steps = sh.runs * sh.steps;
  const figure: Figure = {
    workload,
    ...BLANK,
    runs_per_s: round((sh.runs * 1000) / wallMs),
    steps_per_s: round((steps * 1000) / wallMs),
    runs: sh.runs,
    wall_ms: round(wallMs),
    server_cpu_pct: round((100 * cpuMs) / wallMs),
    thread_cpu_ms: threads,
    // The producer's and the end listener's CPU (the peer's client, in this process), not in
    // cpu_ms_per_step (as our driver's is not in ours).
    driver_cpu_pct: round((100 * driverCpuMs) / wallMs),
    store_cpu_pct: round((100 * storeCpuMs) / wallMs),
    cpu_ms_per_step: round((cpuMs + storeCpuMs) / steps),
    submit_ms: round(sent.lastAnsweredAt - sent.firstSentAt),
  };
  if (workload === "W4") {
    const idealMs = wholeWaveIdealMs(o);
    figure.ratio = round(wallMs / idealMs);
    figure.ideal_ms = round(idealMs);
  }
  return figure;
}

async function latency(s: PeerSession, o: BenchOptions): Promise<Figure> {
  const { rate, seconds, warmupSeconds } = o.w2;
  const warm = await pace(s, rate, Math.round(rate * warmupSeconds));
  await s.waitFor(warm.sentAt.keys(), o.timeoutMs);
  const used = usage(s);
  const paced = await pace(s, rate, Math.round(rate * seconds));
  await s.waitFor(paced.sentAt.keys(), o.timeoutMs);
  const { cpuMs, storeCpuMs } = used();
  const samples = [...paced.sentAt].map(([id, sent]) => s.ended.get(id)! - sent);
  const first = Math.min(...paced.sentAt.values());
  const last = Math.max(...[...paced.sentAt.keys()].map((id) => s.ended.get(id)!));
  const wallMs = last - first;
  const runs = paced.sentAt.size;
  return {
    workload: "W2",
    ...BLANK,
    runs_per_s: round((runs * 1000) / wallMs),
    steps_per_s: round((runs * 3 * 1000) / wallMs),
    ...latencies(samples),
    runs,
    max_ms: round(Math.max(...samples)),
    server_cpu_pct: round((100 * cpuMs) / wallMs),
    store_cpu_pct: round((100 * storeCpuMs) / wallMs),
    cpu_ms_per_step: round((cpuMs + storeCpuMs) / (runs * 3)),
    failed: paced.errors,
  };
}

/** One workload on one peer, on a fresh store and a fresh worker process. */
export async function measurePeer(
  peer: Peer,
  workload: PeerWorkload,
  o: BenchOptions,
): Promise<Figure> {
  const sh = shape(workload, o);
  const spec: SessionSpec = {
    peer,
    workflow: sh.workflow,
    capacity: sh.capacity,
    width: o.w3.width,
    sleepMs: o.w4.sleepMs,
  };
  const session = await openPeer(spec);
  try {
    const figure =
      workload === "W2" ? await latency(session, o) : await batch(session, workload, sh, o);
    const storeRss = session.storeRssMib();
    return {
      ...figure,
      rss_mib: round(session.peakRssMib()),
      ...(storeRss === null ? {} : { store_rss_mib: round(storeRss) }),
    };
  } finally {
    await session.close();
  }
}
