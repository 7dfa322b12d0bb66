// A CPU profile's busy time split by what it is for, in the same terms for Yardmaster and for the
// floor (bench/floor/), so the two can be read side by side (bench/profile-summary.ts --runs=N).
// Each sample goes to the bucket of its own frame; a frame of node itself (node:, internal/) or a
// native one other than SQLite's goes to its nearest caller that has a bucket, and, with none,
// to HTTP (sockets, the HTTP parser, streams) or to "node: timers, promises".
//   SQLite          better-sqlite3's native run/get/all/iterate: time inside SQLite, COMMIT included
//   store JS        src/stores, better-sqlite3's JavaScript, bench/floor/floor-store.ts
//   engine          src/engine, src/authoring, the workflow bodies, bench/floor/floor-engine.ts and
//                   floor-workflows.ts, ulid
//   event fan-out   src/engine/event-bus.ts, src/http/sse/, the floor's `publish`
//   HTTP            fastify and its plugins, src/http, src/service, node:http, the floor's server
//   validation      zod (request bodies, and the responses a schema checks)
//   GC              the garbage collector
//   observability   src/observability (metrics, tracing, the engine's log lines), pino,
//                   prom-client, OpenTelemetry's API
//   V8 (program)    V8's own work the profiler charges to no function (compiling, mostly)
//   peer's own code a peer's queue logic (BullMQ, msgpackr), in a peer worker's profile
//                   (PEERS_PROFILE); its Redis protocol (ioredis) counts as HTTP, its step bodies
//                   as engine
//   other           anything else (src/lib, ...)
// Idle time and the profiler's own stop (`dispatch` under node:inspector) are left out.

import { readFileSync } from "node:fs";

interface Frame {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

export interface Profile {
  nodes: Frame[];
  samples: number[];
  timeDeltas: number[];
}

const BUCKETS = [
  "SQLite",
  "store JS",
  "engine",
  "event fan-out",
  "HTTP",
  "validation",
  "GC",
  "node: timers, promises",
  "observability",
  "V8 (program)",
  "peer's own code",
  "other",
] as const;
type Bucket = (typeof BUCKETS)[number];

const SQLITE_NATIVE = new Set(["get", "all", "run", "iterate"]);

const BY_URL: Array<[RegExp, Bucket]> = [
  [/\/src\/engine\/event-bus|\/src\/http\/sse\//, "event fan-out"],
  [/\/src\/stores\/|better-sqlite3|\/bench\/floor\/floor-store/, "store JS"],
  [/\/zod\/|fastify-type-provider-zod|\/src\/http\/validation/, "validation"],
  [
    /\/src\/engine\/|\/src\/authoring\/|\/bench\/workflows|\/bench\/floor\/floor-(engine|workflows)/,
    "engine",
  ],
  [/\/ulid\//, "engine"],
  [/fastify|find-my-way|fast-json-stringify|avvio|\/src\/http\/|\/src\/service\//, "HTTP"],
  [/\/bench\/floor\/floor-server/, "HTTP"],
  [
    /\/pino|sonic-boom|quick-format|prom-client|@opentelemetry|\/src\/observability\//,
    "observability",
  ],
  [/secure-json-parse/, "HTTP"],
  [/\/bullmq\/|\/msgpackr/, "peer's own code"],
  [/\/ioredis\/|redis-errors|cluster-key-slot|standard-as-callback/, "HTTP"],
  [/\/bench\/peers\/worker\.ts/, "engine"],
];

/** The frame's own bucket, or null when it takes its caller's (node itself, most natives). */
function own(frame: Frame, profiler: boolean): Bucket | "skip" | null {
  const { url, functionName } = frame.callFrame;
  if (!url) {
    if (functionName === "(idle)" || profiler) return "skip";
    if (functionName === "(garbage collector)") return "GC";
    if (functionName === "(program)") return "V8 (program)";
    return SQLITE_NATIVE.has(functionName) ? "SQLite" : null;
  }
  if (/^node:|^internal\//.test(url)) return null;
  if (url.includes("/bench/floor/floor-server") && functionName === "publish")
    return "event fan-out";
  return BY_URL.find(([re]) => re.test(url))?.[1] ?? "other";
}

const NODE_HTTP = /_http_|net|stream|HTTPParser|socket|writev|writeUtf8String|writeBuffer/;

/** Busy microseconds by bucket (the busy time spread by each bucket's share of the samples). */
export function split(profile: Profile): Map<Bucket, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, Bucket | "skip" | null>();
  // The frame's own bucket, else its nearest caller's; null when no frame up the stack has one.
  const bucketOf = (id: number): Bucket | "skip" | null => {
    if (memo.has(id)) return memo.get(id)!;
    const frame = byId.get(id)!;
    const up = parent.get(id);
    const underInspector =
      frame.callFrame.functionName === "dispatch" &&
      byId.get(up ?? -1)?.callFrame.url.includes("inspector") === true;
    const bucket = own(frame, underInspector) ?? (up === undefined ? null : bucketOf(up));
    memo.set(id, bucket);
    return bucket;
  };
  // Node's own work with no caller of ours: sockets and HTTP parsing, or timers and promises.
  const nodeWork = (id: number): Bucket => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      if (NODE_HTTP.test(url) || NODE_HTTP.test(functionName)) return "HTTP";
    }
    return "node: timers, promises";
  };
  // Shares count samples, not the time between them: on a loaded machine the profiler's ticks
  // come late (intervals from 0.25 to over 10 ms), and a late tick's whole interval would be
  // charged to wherever the thread happened to be, often a system call that woke another
  // process. The busy time is still the sum of the intervals, spread by those shares.
  const counts = new Map<Bucket, number>(BUCKETS.map((b) => [b, 0]));
  let samples = 0;
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const bucket = bucketOf(id) ?? nodeWork(id);
    if (bucket === "skip") return;
    counts.set(bucket, counts.get(bucket)! + 1);
    samples += 1;
    busy += profile.timeDeltas[i] ?? 0;
  });
  return new Map([...counts].map(([b, n]) => [b, samples ? (busy * n) / samples : 0]));
}

export type Split = Map<Bucket, number>;

/**
 * A profile's busy time per run by bucket, in µs. The samples' time is wall time while the main
 * thread was on a CPU or waiting for one, so on a loaded machine it overstates the CPU; with
 * `cpuUsPerRun` (the server's measured CPU per run over the profiled window) the profile's shares
 * are scaled to that instead.
 */
export function perRun(profile: Profile, runs: number, cpuUsPerRun?: number): Split {
  const busy = split(profile);
  const total = [...busy.values()].reduce((a, b) => a + b, 0);
  const scale = cpuUsPerRun === undefined ? 1 / runs : cpuUsPerRun / total;
  return new Map([...busy].map(([b, us]) => [b, us * scale]));
}

/** The mean of several splits (repetitions of the same server). */
export function meanSplit(splits: readonly Split[]): Split {
  const at = (b: Bucket) => splits.reduce((sum, m) => sum + m.get(b)!, 0) / splits.length;
  return new Map(BUCKETS.map((b) => [b, at(b)]));
}

// As a command: µs per step of one profile (`thread CPU ms`: the thread CPU over its window).
if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, steps, cpuMs] = process.argv.slice(2);
  if (!file || !steps) {
    console.error("usage: profile-split.ts <file.cpuprofile> <steps> [thread CPU ms]");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const n = Number(steps);
  const cpuUs = cpuMs === undefined ? undefined : (Number(cpuMs) * 1000) / n;
  for (const line of splitTable([file.split("/").pop()!], [perRun(profile, n, cpuUs)])) {
    console.log(line.replace("per run", "per step"));
  }
}

/** One row per bucket, one column per split: µs per run and share of the busy time. */
export function splitTable(names: readonly string[], splits: readonly Split[]): string[] {
  const totals = splits.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
  const width = Math.max(14, ...names.map((n) => n.length));
  const cell = (us: number, i: number) =>
    `${Math.round(us)} (${Math.round((100 * us) / totals[i])}%)`.padStart(width);
  const head = names.map((n) => n.padStart(width)).join("  ");
  const lines = [`${"µs per run (share)".padEnd(24)}${head}`];
  for (const b of BUCKETS) {
    lines.push(`${b.padEnd(24)}${splits.map((m, i) => cell(m.get(b)!, i)).join("  ")}`);
  }
  lines.push(`${"busy".padEnd(24)}${totals.map((t, i) => cell(t, i)).join("  ")}`);
  return lines;
}
