import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Completions } from "./completions.ts";
import { forkFloorServer } from "./floor/floor-fork.ts";
import {
  driveRound,
  type FloorRound,
  floorWorkloadNamed,
  floorWorkloads,
  type RoundTarget,
  showWaves,
  type FloorWorkload as Workload,
} from "./floor/floor-rounds.ts";
import { HttpClient } from "./http-client.ts";
import { type BenchOptions, readOptions } from "./options.ts";
import { meanSplit, perRun, type Split, splitTable } from "./profile-split.ts";
import { cpuMs, waitExit } from "./server-handle.ts";
import { withSession } from "./session.ts";
import { type FloorResult, floorFile } from "./targets.ts";

type Round = FloorRound;

async function rounds(w: Workload, o: BenchOptions, t: RoundTarget): Promise<Round[]> {
  const out = [await driveRound(w, o, t)];
  if (o.warm) out.push(await driveRound(w, o, t));
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
    const result = await rounds(w, o, { client, ends, cpu: () => cpuMs(child.pid!), floor: child });
    ends.close();
    client.close();
    return result;
  } finally {
    child.kill();
    await waitExit(child, 20_000);
    rmSync(dir, { recursive: true, force: true });
  }
}

// W4's rounds also say their wall, its ratio to the whole-wave ideal and, from a floor, its
// commits per step and each wave's hand-off lateness.
const waveText = (r: Round) =>
  r.ratio === null
    ? ""
    : `, ${r.wallMs} ms = ${r.ratio}x the ideal` +
      (r.waves ? `, ${r.commits} commits/step, hand-off p50/max ms: ${showWaves(r.waves)}` : "");

const show = (name: string, [cold, warm]: Round[]) => {
  const at = (r: Round) =>
    `${String(r.stepsPerS).padStart(6)} steps/s (${r.cpuUsPerRun} µs CPU/run${waveText(r)})`;
  console.log(`${name.padEnd(13)} cold ${at(cold)}${warm ? `  warm ${at(warm)}` : ""}`);
};

const per = (a: Round, b: Round) => Number((a.cpuUsPerRun / b.cpuUsPerRun).toFixed(2));

async function measure(w: Workload, o: BenchOptions, repeat: number): Promise<FloorResult> {
  const result: FloorResult = { at: new Date().toISOString(), runs: w.runs, cold: [], warm: [] };
  result.workload = w.name;
  result.cpu_us_per_run = { yardmaster: [], floor: [], floor_memory: [] };
  result.load = [];
  if (w.idealMs !== null)
    result.ideal = { ms: w.idealMs, yardmaster: [], floor: [], floor_memory: [] };
  const splits: Split[][] = [];
  for (let rep = 1; rep <= repeat; rep++) {
    const load = loadavg()[0];
    result.load?.push(Number(load.toFixed(2)));
    console.log(`${w.name} repetition ${rep} (load average ${load.toFixed(2)})`);
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
    ] as const) {
      result.cpu_us_per_run[key].push(r.map((x) => x.cpuUsPerRun));
      result.ideal?.[key].push(r.map((x) => x.ratio ?? 0));
    }
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
const names = args.filter((a) => !/^\d+$/.test(a));
const picked = (names.length ? names : ["W1", "W3"]).map((a) => {
  const name = floorWorkloadNamed(a);
  if (!name) throw new Error(`the floor runs W1, W3, W4 and W4-fan, not ${a}`);
  return name;
});
const options = readOptions([]);
const known = floorWorkloads(options);
for (const name of picked) {
  const w = known[name];
  const result = await measure(w, options, repeat);
  // For `npm run bench`'s target lines (bench/targets.ts); not from profiled rounds, which the
  // profiler makes dearer.
  if (options.profileDir) continue;
  mkdirSync(join(floorFile(w.name), ".."), { recursive: true });
  writeFileSync(floorFile(w.name), `${JSON.stringify(result)}\n`);
}
