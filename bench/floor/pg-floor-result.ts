// What bench/floor-pg.ts measured last, and the lines bench/targets.ts prints from it: the
// PostgreSQL floor's W1 steps/s over Yardmaster's on PostgreSQL and over graphile-worker's, in
// the same run (issue 22 asks Yardmaster for 5x the best PostgreSQL peer); W4's and W4-fan's
// wall over the whole-wave ideal, the floor's beside Yardmaster's (issue 22 asks 1.5x).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Wave } from "./floor-rounds.ts";

/** One system's W1 round in one repetition. */
export interface FloorPgRow {
  rep: number;
  system: string;
  stepsPerS: number;
  /** CPU ms per step: the server's (the worker's), the cluster's. */
  serverMs: number;
  pgMs: number;
  /** The driver's CPU ms per step (HTTP client, event stream; the commit loop's client). */
  driverMs: number;
  /** The 1-minute load average before the round, and the share of both cores others kept busy
   * just before it (bench/quiet.ts; BENCH_QUIET waits for a quieter moment). */
  load: number;
  busy: number;
  /** Per step, from the cluster's statistics over the whole session (start-up included). */
  commits: number;
  walSyncs: number;
  walBytes: number;
  /** The floor's own, a commit's mean: its JavaScript (ms), its latency (ms) and its events. */
  buildMs?: number;
  commitMs?: number;
  eventsPerCommit?: number;
  /** W4 and W4-fan (absent: W1): the workload, its wall, the wall over the whole-wave ideal and
   * a floor's hand-off lateness by wave (bench/floor/floor-rounds.ts). */
  workload?: string;
  wallMs?: number;
  ratio?: number;
  waves?: Wave[];
}

export interface FloorPgResult {
  at: string;
  runs: number;
  rows: FloorPgRow[];
  /** Per repetition; null where one of the two was not measured. */
  floorOverYardmaster: Array<number | null>;
  floorOverGraphile: Array<number | null>;
}

export const FLOOR_PG_FILE = join(import.meta.dirname, "..", "results", "floor-pg.json");
/** `bench/floor-pg.ts W4`'s (W4 and W4-fan; floorOverYardmaster and floorOverGraphile empty). */
export const FLOOR_PG_W4_FILE = join(import.meta.dirname, "..", "results", "floor-pg-w4.json");

const range = (xs: Array<number | null | undefined>) => {
  const got = xs.filter((x): x is number => typeof x === "number");
  if (got.length === 0) return "not measured";
  return `${Math.min(...got)}-${Math.max(...got)}x`;
};

export function floorPgW4Line(file = FLOOR_PG_W4_FILE, given?: FloorPgResult): string {
  const what = "PostgreSQL W4 / W4-fan wall / whole-wave ideal";
  if (!given && !existsSync(file))
    return `${what}: not measured (bench/floor-pg.ts W4; issue 22 asks 1.5x)`;
  const f = given ?? (JSON.parse(readFileSync(file, "utf8")) as FloorPgResult);
  const of = (system: string, workload: string) =>
    range(f.rows.filter((r) => r.system === system && r.workload === workload).map((r) => r.ratio));
  const both = (system: string) => `${of(system, "W4")} / ${of(system, "W4-fan")}`;
  return `${what} (bench/floor-pg.ts W4, ${f.at}): floor ${both("floor")}, Yardmaster ${both("yardmaster")} (issue 22 asks 1.5x)`;
}

export function floorPgLine(file = FLOOR_PG_FILE): string {
  const what = "PostgreSQL W1, the floor's steps/s";
  if (!existsSync(file)) return `${what}: not measured (bench/floor-pg.ts; a ceiling, no target)`;
  const f = JSON.parse(readFileSync(file, "utf8")) as FloorPgResult;
  const floors = f.rows.filter((r) => r.system === "floor").map((r) => r.stepsPerS);
  const best = floors.length ? Math.max(...floors) : "-";
  return `${what} (bench/floor-pg.ts, ${f.at}): best ${best}, ${range(f.floorOverYardmaster)} Yardmaster's, ${range(f.floorOverGraphile)} graphile-worker's (issue 22 asks Yardmaster for 5x the best peer)`;
}
