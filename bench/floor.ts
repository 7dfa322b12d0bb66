import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Completions, lastEnd, submitMany } from "./completions.ts";
import { forkFloorServer } from "./floor/floor-fork.ts";
import { HttpClient } from "./http-client.ts";
import { type BenchOptions, readOptions } from "./options.ts";
import { meanSplit, perRun, type Split, splitTable } from "./profile-split.ts";
import { cpuMs, waitExit } from "./server-handle.ts";
import { withSession } from "./session.ts";
import { type FloorResult, floorFile } from "./targets.ts";

interface Workload {
  name: "W1" | "W3";
  workflow: string;
  runs: number;
  /** Attempts per run. */
  steps: number;
  capacity: number;
  title: string;
}

function workloads(o: BenchOptions): Record<Workload["name"], Workload> {
  const { w1, w3 } = o;
  return {
    W1: { name: "W1", workflow: "chain3", steps: 3, title: "chain", ...w1 },
    W3: {
      ...{ name: "W3", workflow: "fan", runs: w3.runs, steps: w3.width + 2 },
      ...{ capacity: w3.capacity, title: String(w3.width) },
    },
  };
}

interface Round {
  stepsPerS: number;
  cpuUsPerRun: number;
}

interface Target {
  client: HttpClient;
  ends: Completions;
  cpu: () => number;
}

async function round(w: Workload, o: BenchOptions, t: Target): Promise<Round> {
  const before = t.cpu();
  const sent = await submitMany(t.client, w.workflow, w.runs, o.inFlight, () => w.title);
  const ids = [...sent.sentAt.keys()];
  await t.ends.waitFor(ids, o.timeoutMs);
  const wallMs = lastEnd(t.ends, ids) - sent.firstSentAt;
  return {
    stepsPerS: Math.round((w.runs * w.steps * 1000) / wallMs),
    cpuUsPerRun: Math.round(((t.cpu() - before) * 1000) / w.runs),
  };
}

async function rounds(w: Workload, o: BenchOptions, t: Target): Promise<Round[]> {
  const out = [await round(w, o, t)];
  if (o.warm) out.push(await round(w, o, t));
  return out;
}

const SERVERS = ["yardmaster", "floor", "floor-memory"];

function profileFile(o: BenchOptions, w: Workload, server: string, rep: number) {
  if (!o.profileDir) return undefined;
  mkdirSync(o.profileDir, { recursive: true });
  return join(o.profileDir, `floor-${w.name}-${server}-${rep}.cpuprofile`);
}

async function yardmaster(w: Workload, o: BenchOptions, rep: number): Promise<Round[]> {
  const spec = {
    pools: { bench: w.capacity },
    workflows: { [w.workflow]: "bench" },
    profileFile: profileFile(o, w, "yardmaster", rep),
  };
  const { value } = await withSession(spec, (s) =>
    rounds(w, o, { client: s.client, ends: s.completions, cpu: () => s.server.cpuMs() }),
  );
  return value;
}

async function floor(w: Workload, o: BenchOptions, rep: number, durable: boolean) {
  const dir = mkdtempSync(join(tmpdir(), "ym-floor-"));
  const target = durable ? join(dir, "floor.db") : "memory";
  const profile = profileFile(o, w, durable ? "floor" : "floor-memory", rep);
  const env = { ...process.env, FLOOR_PROFILE_FILE: profile ?? "" };
  const { child, port } = await forkFloorServer([target, String(w.capacity)], env);
  try {
    const base = `http://127.0.0.1:${port}`;
    const client = new HttpClient(base, { timeoutMs: 60_000 });
    const ends = await Completions.open(base);
    const result = await rounds(w, o, { client, ends, cpu: () => cpuMs(child.pid!) });
    ends.close();
    client.close();
    return result;
  } finally {
    child.kill();
    await waitExit(child, 20_000);
    rmSync(dir, { recursive: true, force: true });
  }
}

const show = (name: string, [cold, warm]: Round[]) => {
  const at = (r: Round) =>
    `${String(r.stepsPerS).padStart(6)} steps/s (${r.cpuUsPerRun} µs CPU/run)`;
  console.log(`${name.padEnd(13)} cold ${at(cold)}${warm ? `  warm ${at(warm)}` : ""}`);
};

const per = (a: Round, b: Round) => Number((a.cpuUsPerRun / b.cpuUsPerRun).toFixed(2));

async function measure(w: Workload, o: BenchOptions, repeat: number): Promise<FloorResult> {
  const result: FloorResult = { at: new Date().toISOString(), runs: w.runs, cold: [], warm: [] };
  result.workload = w.name;
  result.cpu_us_per_run = { yardmaster: [], floor: [], floor_memory: [] };
  const splits: Split[][] = [];
  for (let rep = 1; rep <= repeat; rep++) {
    console.log(`${w.name} repetition ${rep}`);
    const ours = await yardmaster(w, o, rep);
    show("yardmaster", ours);
    const least = await floor(w, o, rep, true);
    show("floor", least);
    const bare = await floor(w, o, rep, false);
    show("floor-memory", bare);
    for (const [key, r] of [
      ["yardmaster", ours],
      ["floor", least],
      ["floor_memory", bare],
    ] as const)
      result.cpu_us_per_run[key].push(r.map((x) => x.cpuUsPerRun));
    // The target: Yardmaster's server CPU per run within 1.3x of the durable floor's.
    const warm = ours[1] && least[1] ? per(ours[1], least[1]) : null;
    const warmText = warm === null ? "" : `, warm ${warm}x`;
    console.log(
      `${w.name} yardmaster / floor CPU per run: cold ${per(ours[0], least[0])}x${warmText} (target <= 1.3x)`,
    );
    result.cold.push(per(ours[0], least[0]));
    if (warm !== null) result.warm.push(warm);
    if (o.profileDir) splits.push(printSplit(w, o, rep, [ours, least, bare]));
  }
  if (splits.length > 1) {
    console.log(`${w.name}, the mean of ${splits.length} repetitions:`);
    const mean = SERVERS.map((_, i) => meanSplit(splits.map((rep) => rep[i])));
    for (const line of splitTable(SERVERS, mean)) console.log(line);
  }
  return result;
}

/**
 * The three profiles of a repetition side by side, each scaled to its server's measured CPU per
 * run over the profiled rounds (bench/profile-split.ts), printed and answered.
 */
function printSplit(w: Workload, o: BenchOptions, rep: number, measured: Round[][]): Split[] {
  const mean = (rs: Round[]) => rs.reduce((sum, r) => sum + r.cpuUsPerRun, 0) / rs.length;
  const splits = SERVERS.map((server, i) => {
    const profile = JSON.parse(readFileSync(profileFile(o, w, server, rep)!, "utf8"));
    return perRun(profile, w.runs, mean(measured[i]));
  });
  for (const line of splitTable(SERVERS, splits)) console.log(line);
  return splits;
}

const args = process.argv.slice(2);
const repeat = Number(args.find((a) => /^\d+$/.test(a)) ?? 2);
const names = args.filter((a) => !/^\d+$/.test(a)).map((a) => a.toUpperCase());
const options = readOptions(names.length ? names : ["W1", "W3"]);
const known = workloads(options);
for (const name of options.workloads) {
  const w = known[name as Workload["name"]];
  if (!w) throw new Error(`the floor runs W1 and W3, not ${name}`);
  const result = await measure(w, options, repeat);
  // For `npm run bench`'s target lines (bench/targets.ts); not from profiled rounds, which the
  // profiler makes dearer.
  if (options.profileDir) continue;
  mkdirSync(join(floorFile(w.name), ".."), { recursive: true });
  writeFileSync(floorFile(w.name), `${JSON.stringify(result)}\n`);
}
