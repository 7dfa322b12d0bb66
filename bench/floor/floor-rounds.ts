// One round of a batch workload as both floor drivers (bench/floor.ts, bench/floor-pg.ts) drive
// it, against a floor server or Yardmaster's: the runs submitted at once (64 in flight), timed
// from the first submit to the last `run.completed` seen on the event stream, with the server's
// (and the PostgreSQL cluster's) CPU over the round and, from a floor, its commits and each
// attempt's hand-off lateness (bench/floor/floor-engine.ts, `EngineStats`).
import type { ChildProcess } from "node:child_process";
import { type Completions, lastEnd, submitMany } from "../completions.ts";
import type { HttpClient } from "../http-client.ts";
import type { BenchOptions } from "../options.ts";
import { wholeWaveIdealMs } from "../workloads/batch.ts";
import type { EngineStats } from "./floor-engine.ts";

export type FloorWorkloadName = "W1" | "W3" | "W4" | "W4-fan";

export interface FloorWorkload {
  name: FloorWorkloadName;
  workflow: string;
  runs: number;
  /** Attempts per run. */
  steps: number;
  capacity: number;
  title: string;
  /** W4's whole-wave ideal (bench/workloads/batch.ts, the same as `npm run bench`'s). */
  idealMs: number | null;
}

/** The workloads with the bench's sizes (BENCH_* variables), as `npm run bench` runs them. */
export function floorWorkloads(o: BenchOptions): Record<FloorWorkloadName, FloorWorkload> {
  const { w1, w3, w4 } = o;
  const idealMs = wholeWaveIdealMs(o);
  const napping = { steps: 1, capacity: w4.capacity, idealMs };
  return {
    W1: { name: "W1", workflow: "chain3", steps: 3, title: "chain", idealMs: null, ...w1 },
    W3: {
      ...{ name: "W3", workflow: "fan", runs: w3.runs, steps: w3.width + 2 },
      ...{ capacity: w3.capacity, title: String(w3.width), idealMs: null },
    },
    W4: { name: "W4", workflow: "nap", runs: w4.attempts, title: String(w4.sleepMs), ...napping },
    "W4-fan": {
      ...{ name: "W4-fan", workflow: "napfan", runs: 1, ...napping },
      ...{ steps: w4.attempts + 1, title: `${w4.attempts}x${w4.sleepMs}` },
    },
  };
}

/** A workload's name as given on a command line (`w4-fan`, `W4-FAN`), or undefined. */
export function floorWorkloadNamed(arg: string): FloorWorkloadName | undefined {
  const names: FloorWorkloadName[] = ["W1", "W3", "W4", "W4-fan"];
  return names.find((n) => n.toUpperCase() === arg.toUpperCase());
}

export interface RoundTarget {
  client: HttpClient;
  ends: Completions;
  /** The server's CPU so far (ms). */
  cpu: () => number;
  /** The PostgreSQL cluster's CPU so far (ms); absent on SQLite. */
  storeCpu?: () => number;
  /** A floor server's process, to ask for its engine's counters. */
  floor?: ChildProcess;
}

/** The hand-off lateness (ms) of the attempts of one wave (`capacity` starts in start order). */
export interface Wave {
  p50: number;
  max: number;
}

export interface FloorRound {
  wallMs: number;
  stepsPerS: number;
  /** Wall over W4's whole-wave ideal; null for other workloads. */
  ratio: number | null;
  cpuUsPerRun: number;
  /** CPU ms per step: the server's, the cluster's (0 on SQLite). */
  serverMs: number;
  storeMs: number;
  /** A floor's commits per step over the round, and its hand-off lateness by wave. */
  commits?: number;
  waves?: Wave[];
}

/** A floor server's counters so far (its engine answers `floor-stats` by IPC). */
export function floorStats(child: ChildProcess): Promise<EngineStats> {
  return new Promise((resolve) => {
    const on = (m: { floorStats?: EngineStats }) => {
      if (!m.floorStats) return;
      child.off("message", on);
      resolve(m.floorStats);
    };
    child.on("message", on);
    child.send("floor-stats");
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const r2 = (x: number) => Math.round(x * 100) / 100;

/** Lateness in start order, cut into waves of `capacity` hand-offs. */
export function wavesOf(handoffs: readonly number[], capacity: number): Wave[] {
  const out: Wave[] = [];
  for (let at = 0; at < handoffs.length; at += capacity) {
    const wave = handoffs.slice(at, at + capacity);
    out.push({ p50: r2(median(wave)), max: r2(Math.max(...wave)) });
  }
  return out;
}

export async function driveRound(
  w: FloorWorkload,
  o: BenchOptions,
  t: RoundTarget,
): Promise<FloorRound> {
  const before = { cpu: t.cpu(), store: t.storeCpu?.() ?? 0 };
  const stats = t.floor ? await floorStats(t.floor) : null;
  const sent = await submitMany(t.client, w.workflow, w.runs, o.inFlight, () => w.title);
  const ids = [...sent.sentAt.keys()];
  await t.ends.waitFor(ids, o.timeoutMs);
  const wallMs = lastEnd(t.ends, ids) - sent.firstSentAt;
  const cpuMs = t.cpu() - before.cpu;
  const steps = w.runs * w.steps;
  const round: FloorRound = {
    wallMs: Math.round(wallMs),
    stepsPerS: Math.round((steps * 1000) / wallMs),
    ratio: w.idealMs === null ? null : r2(wallMs / w.idealMs),
    cpuUsPerRun: Math.round((cpuMs * 1000) / w.runs),
    serverMs: cpuMs / steps,
    storeMs: ((t.storeCpu?.() ?? 0) - before.store) / steps,
  };
  if (!t.floor || !stats) return round;
  const after = await floorStats(t.floor);
  round.commits = r2((after.commits - stats.commits) / steps);
  round.waves = wavesOf(after.handoffs.slice(stats.handoffs.length), w.capacity);
  return round;
}

/** `p50/max` of each wave's hand-off lateness, ms. */
export const showWaves = (waves: readonly Wave[]) =>
  waves.map((x) => `${x.p50}/${x.max}`).join(" ");
