// Splits a CPU profile (ours from BENCH_PROFILE, or a peer worker's from PEERS_PROFILE) into the
// few kinds of work a step costs, side by side for Yardmaster and a peer:
//   node --import tsx bench/profile-split.ts <file.cpuprofile> <steps> [thread CPU ms]
// Each sample goes to one kind: the SSE fan-out or telemetry when any frame of its stack is
// theirs; else GC, idle or V8 itself by its leaf; else SQLite when the leaf is one of
// better-sqlite3's statement calls; else the kind of the frame nearest the leaf that has one
// (node's own timers, promises and emitters have none and pass it to their caller). The
// profile samples wall time, waits for a core included, so with the thread's CPU time over the
// window (`main_thread_cpu_pct` x `wall_ms`, or a peer's `thread_cpu_ms`) it prints each kind's
// busy share as µs of CPU per step; without it, sampled µs per step.
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

const SQLITE_NATIVE = new Set(["get", "all", "run", "iterate", "exec"]);

/** Kinds that claim a sample when any frame of its stack is theirs. */
const STICKY: Array<[RegExp, string]> = [
  [/\/src\/http\/sse\//, "event fan-out (SSE)"],
  [/\/src\/observability\/|\/pino|\/prom-client\/|@opentelemetry|sonic-boom/, "telemetry"],
];

/** Kinds by the frame nearest the leaf that has one. */
const NEAREST: Array<[RegExp, string]> = [
  [/\/src\/stores\/|better-sqlite3/, "store JS"],
  [/\/src\/engine\/|\/src\/authoring\/|\/ulid/, "engine, dispatch"],
  [/\/zod\/|secure-json-parse|\/ajv|fastify-type-provider-zod/, "validation, JSON parse"],
  [/\/src\/service\//, "service"],
  [/\/bullmq\/|\/msgpackr/, "BullMQ (queue logic, msgpack)"],
  [/\/ioredis\/|redis-errors|cluster-key-slot|standard-as-callback/, "protocol (HTTP, RESP)"],
  [
    /\/src\/http\/|\/fastify|find-my-way|avvio|fast-json-stringify|light-my-request|^node:_http|^node:net$|^node:internal\/(stream|streams\/|http|net)/,
    "protocol (HTTP, RESP)",
  ],
  [/\/bench\/workflows\.ts|\/bench\/peers\/worker\.ts/, "step bodies"],
];

function kindOfFrame(url: string, table: Array<[RegExp, string]>): string | null {
  if (!url) return null;
  return table.find(([re]) => re.test(url))?.[1] ?? null;
}

export function split(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const kindOf = (id: number): string => {
    const known = memo.get(id);
    if (known) return known;
    const leaf = byId.get(id)!.callFrame;
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      stack.push(byId.get(at)!);
    let kind: string | null = null;
    // The inspector's own start (in the window's first milliseconds) is not the server's work.
    if (stack.some((n) => /\/bench\/cpu-profiler\.ts/.test(n.callFrame.url))) kind = "(idle)";
    for (const [re, k] of STICKY)
      if (!kind && stack.some((n) => re.test(n.callFrame.url))) kind = k;
    if (!kind && leaf.functionName === "(idle)") kind = "(idle)";
    if (!kind && leaf.functionName === "(garbage collector)") kind = "GC (main thread)";
    if (!kind && leaf.functionName === "(program)") kind = "V8 (program)";
    if (!kind && !leaf.url && SQLITE_NATIVE.has(leaf.functionName)) {
      const caller = stack[1]?.callFrame.url ?? "";
      if (/\/src\/stores\/|better-sqlite3/.test(caller)) kind = "SQLite (inside statements)";
    }
    for (const n of stack) {
      if (kind) break;
      kind = kindOfFrame(n.callFrame.url, NEAREST);
    }
    kind ??= "node runtime (timers, promises, emitters)";
    memo.set(id, kind);
    return kind;
  };
  const phaseOf = (id: number): string => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at))
      stack.push(byId.get(at)!);
    const has = (re: RegExp) =>
      stack.some((n) => re.test(`${n.callFrame.url} ${n.callFrame.functionName}`));
    if (has(/\/src\/http\/sse\//)) return "SSE fan-out";
    if (has(/^node:_http_|\/fastify\/|\/src\/http\//)) return "HTTP requests and answers (submits)";
    if (has(/\/src\/stores\/|\/unit-of-work\.ts|#runTransaction|#runUnit/))
      return "units of work (engine and store inside a transaction)";
    if (has(/\/src\/engine\//)) return "engine outside a unit (attempts, dispatch, publish)";
    return "other";
  };
  const kinds = new Map<string, number>();
  const phases = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    total += us;
    const k = kindOf(id);
    kinds.set(k, (kinds.get(k) ?? 0) + us);
    if (k !== "(idle)") {
      const p = phaseOf(id);
      phases.set(p, (phases.get(p) ?? 0) + us);
    }
  });
  return { kinds, phases, total };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, stepsArg, cpuArg] = process.argv.slice(2);
  if (!file || !stepsArg) {
    console.error("usage: profile-split.ts <file.cpuprofile> <steps> [thread CPU ms]");
    process.exit(2);
  }
  const steps = Number(stepsArg);
  const { kinds, phases, total } = split(JSON.parse(readFileSync(file, "utf8")));
  const busy = total - (kinds.get("(idle)") ?? 0);
  const scale = cpuArg ? (Number(cpuArg) * 1000) / busy : 1;
  console.log(
    `${file}: ${(total / 1000).toFixed(0)} ms sampled, ${(busy / 1000).toFixed(0)} ms busy; ` +
      `${cpuArg ? `scaled to ${cpuArg} ms of CPU` : "sampled time"}, per step of ${steps}`,
  );
  for (const [kind, us] of [...kinds].sort((a, b) => b[1] - a[1])) {
    if (kind === "(idle)") continue;
    const share = ((100 * us) / busy).toFixed(1).padStart(5);
    console.log(`${share}%  ${((us * scale) / steps).toFixed(1).padStart(7)} µs/step  ${kind}`);
  }
  console.log("By the stack's root (where the work started)");
  for (const [phase, us] of [...phases].sort((a, b) => b[1] - a[1])) {
    const share = ((100 * us) / busy).toFixed(1).padStart(5);
    console.log(`${share}%  ${((us * scale) / steps).toFixed(1).padStart(7)} µs/step  ${phase}`);
  }
}
