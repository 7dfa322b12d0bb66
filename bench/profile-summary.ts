// Summarizes a V8 CPU profile of the server (BENCH_PROFILE=1 npm run bench -- W1 writes one per
// workload to bench/results/profiles/):
//   node --import tsx bench/profile-summary.ts <file.cpuprofile> [top=25]
// Prints the share of sampled time by area (our store, engine, HTTP layer, fastify, zod, GC,
// idle...), the time spent inside SQLite statements (better-sqlite3's native get/all/run)
// charged to the store function that ran them, then the functions with the most self time and
// the most inclusive time.
//   node --import tsx bench/profile-summary.ts --runs=<n> <a.cpuprofile> [b.cpuprofile ...]
// prints instead, side by side, each profile's busy time per run split by what it is for
// (bench/profile-split.ts): Yardmaster's and the floor's (bench/floor.ts) in the same terms.
import { readFileSync } from "node:fs";
import { perRun, splitTable } from "./profile-split.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** better-sqlite3's native statement calls: the time SQLite itself spends. */
const SQLITE_NATIVE = new Set(["get", "all", "run", "iterate"]);

const AREAS: Array<[RegExp, string]> = [
  [/\/src\/stores\//, "store (src/stores)"],
  [/\/src\/engine\//, "engine (src/engine)"],
  [/\/src\/http\//, "http (src/http)"],
  [/\/src\/service\//, "service (src/service)"],
  [/\/src\/authoring\//, "authoring (src/authoring)"],
  [/\/src\/loading\//, "loading (src/loading)"],
  [/\/src\/lib\//, "lib (src/lib)"],
  [/\/bench\//, "bench workflows"],
  [/better-sqlite3/, "better-sqlite3 (JS side)"],
  [/fastify-type-provider-zod|\/zod\//, "zod"],
  [/fast-json-stringify|find-my-way|light-my-request|avvio|\/fastify\//, "fastify"],
  [/pino/, "pino"],
  [/ulid/, "ulid"],
  [/^node:|^internal\//, "node internals"],
];

function areaOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) {
    if (functionName === "(idle)") return "(idle)";
    if (functionName === "(garbage collector)") return "(garbage collector)";
    if (functionName === "(program)") return "(program)";
    return `native: ${functionName || "(anonymous)"}`;
  }
  return AREAS.find(([re]) => re.test(url))?.[1] ?? "other JS";
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*\/(node_modules\/|src\/|bench\/)/, "$1");
  return `${functionName || "(anonymous)"} ${file ? `${file}:${lineNumber + 1}` : ""}`.trim();
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

function summarize(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  const sqlite = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    total += us;
    add(self, label(node), us);
    add(areas, areaOf(node), us);
    const caller = byId.get(parent.get(id) ?? -1);
    const native = !node.callFrame.url && SQLITE_NATIVE.has(node.callFrame.functionName);
    if (native && caller && !caller.callFrame.url.startsWith("node:")) {
      add(sqlite, label(caller), us);
    }
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const key = label(byId.get(at)!);
      if (!seen.has(key)) add(inclusive, key, us);
      seen.add(key);
    }
  });
  return { self, inclusive, areas, sqlite, total };
}

function print(title: string, map: Map<string, number>, total: number, top: number): void {
  console.log(`\n${title}`);
  const rows = [...map].sort((a, b) => b[1] - a[1]).slice(0, top);
  for (const [key, us] of rows) {
    const pct = ((100 * us) / total).toFixed(1).padStart(5);
    console.log(`${pct}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${key}`);
  }
}

const runsArg = process.argv.find((a) => a.startsWith("--runs="));
if (runsArg) {
  const files = process.argv.slice(2).filter((a) => !a.startsWith("--"));
  const runs = Number(runsArg.slice(7));
  const splits = files.map((f) => perRun(JSON.parse(readFileSync(f, "utf8")), runs));
  const names = files.map((f) => f.replace(/^.*\//, "").replace(/\.cpuprofile$/, ""));
  for (const line of splitTable(names, splits)) console.log(line);
  process.exit(0);
}
const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: profile-summary.ts <file.cpuprofile> [top]");
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, "utf8"));
const { self, inclusive, areas, sqlite, total } = summarize(profile);
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print("By area (self time)", areas, total, 30);
print("Inside SQLite statements, by the store function that ran them", sqlite, total, top);
print("Top functions by self time", self, total, top);
print("Top functions by inclusive time", inclusive, total, top);
