// The engineering targets `npm run bench` prints under its table: each figure of this run beside
// its target, as a ratio where the target is one. Printed, never asserted (docs/benchmarks.md,
// "Targets"); a row whose workload did not run says so.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Figure } from "./figures.ts";
import { floorPgLine, floorPgW4Line } from "./floor/pg-floor-result.ts";
import { type PeerRow, peerRatios, ratioLines } from "./peers/ratios.ts";

/** What bench/submit-cost.ts measured last: CPU per run of single and batch submits, by round. */
export interface SubmitCost {
  at: string;
  submits: number;
  rounds: number;
  single_us: number[];
  batch_us: number[];
  /** Single over batch CPU per run, first (cold) round against first round. */
  cold_ratio: number;
  /** The same, median of the later (warm) rounds against median; null with one round. */
  warm_ratio: number | null;
}

export const SUBMIT_COST_FILE = join(import.meta.dirname, "results", "submit-cost.json");

function submitCostLine(): string {
  const goal = "target >= 5x, warm against warm";
  if (!existsSync(SUBMIT_COST_FILE)) {
    return `Batch submit CPU per run, single / batch: not measured (bench/submit-cost.ts; ${goal})`;
  }
  const c = JSON.parse(readFileSync(SUBMIT_COST_FILE, "utf8")) as SubmitCost;
  const verdict = c.warm_ratio === null ? "" : c.warm_ratio >= 5 ? "  met" : "  NOT MET";
  return `Batch submit CPU per run, single / batch (bench/submit-cost.ts, ${c.at}): warm ${c.warm_ratio ?? "-"}x, cold ${c.cold_ratio}x (${goal})${verdict}`;
}

/** What bench/floor.ts measured last of a workload: Yardmaster's CPU per run over the floor's. */
export interface FloorResult {
  at: string;
  runs: number;
  /** W1, W3, W4 or W4-fan (absent in files written before W3 had a floor: W1). */
  workload?: string;
  /** One ratio per repetition, cold rounds against cold rounds. */
  cold: number[];
  /** The same, warm rounds (empty with BENCH_WARM=0). */
  warm: number[];
  /** Server CPU per run by server, per repetition [cold, warm]. */
  cpu_us_per_run?: Record<"yardmaster" | "floor" | "floor_memory", number[][]>;
  /** The 1-minute load average before each repetition. */
  load?: number[];
  /** W4 and W4-fan: the whole-wave ideal, and each server's wall over it per repetition
   * [cold, warm]. */
  ideal?: { ms: number } & Record<"yardmaster" | "floor" | "floor_memory", number[][]>;
}

/** Where bench/floor.ts writes its last result for a workload (W1: the file it always had). */
export function floorFile(workload: string): string {
  return join(import.meta.dirname, "results", `floor-${workload.toLowerCase()}.json`);
}

const range = (xs: number[]) => {
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  return xs.length === 0 ? "not measured" : lo === hi ? `${lo}x` : `${lo}-${hi}x`;
};

/** W4 and W4-fan on SQLite: the durable floor's wall over the whole-wave ideal beside ours. */
function floorIdealLine(workload: string): string {
  const file = floorFile(workload);
  const what = `${workload} wall / whole-wave ideal on SQLite, the durable floor beside Yardmaster`;
  if (!existsSync(file)) return `${what}: not measured (bench/floor.ts ${workload}; a bound)`;
  const f = JSON.parse(readFileSync(file, "utf8")) as FloorResult;
  if (!f.ideal) return `${what}: not in ${file}`;
  const cold = (xs: number[][]) => range(xs.map(([c]) => c));
  return `${what} (bench/floor.ts, ${f.at}): floor cold ${cold(f.ideal.floor)}, Yardmaster cold ${cold(f.ideal.yardmaster)} (target <= 1.10x)`;
}

function floorLine(workload: string): string {
  const goal = "target <= 1.3x";
  const file = floorFile(workload);
  const what = `${workload} server CPU per run / the durable floor's`;
  if (!existsSync(file)) return `${what}: not measured (bench/floor.ts ${workload}; ${goal})`;
  const f = JSON.parse(readFileSync(file, "utf8")) as FloorResult;
  const met = Math.max(...f.cold, ...f.warm) <= 1.3 ? "  met" : "  NOT MET";
  return `${what} (bench/floor.ts, ${f.at}): cold ${range(f.cold)}, warm ${range(f.warm)} (${goal})${met}`;
}

interface Target {
  what: string;
  /** The figure of this run, or null when its workload was not measured. */
  value: (f: Map<string, Figure>) => number | null;
  unit: string;
  goal: string;
  met: (v: number) => boolean;
}

const num = (f: Figure | undefined, key: string): number | null =>
  typeof f?.[key] === "number" ? (f[key] as number) : null;

const ratio = (a: number | null, b: number | null) =>
  a === null || b === null || b === 0 ? null : a / b;

const TARGETS: Target[] = [
  {
    what: "W1 server CPU per run / W1B's (batch submit saves)",
    value: (f) =>
      ratio(num(f.get("W1"), "server_cpu_us_per_run"), num(f.get("W1B"), "server_cpu_us_per_run")),
    unit: "x",
    goal: ">= 5x on the submit alone (bench/submit-cost.ts); this row includes the steps",
    met: (v) => v >= 5,
  },
  {
    what: "W2 p99 at 100 runs/s",
    value: (f) => num(f.get("W2"), "p99_ms"),
    unit: " ms",
    goal: "< 10 ms",
    met: (v) => v < 10,
  },
  {
    what: "W2 p99 / p50",
    value: (f) => ratio(num(f.get("W2"), "p99_ms"), num(f.get("W2"), "p50_ms")),
    unit: "x",
    goal: "< 2x",
    met: (v) => v < 2,
  },
  {
    what: "W4 wall / whole-wave ideal",
    value: (f) => num(f.get("W4"), "ratio"),
    unit: "x",
    goal: "<= 1.10x",
    met: (v) => v <= 1.1,
  },
  {
    what: "W1 server peak RSS",
    value: (f) => num(f.get("W1"), "rss_mib"),
    unit: " MiB",
    goal: "< 200 MiB",
    met: (v) => v < 200,
  },
];

const PEERS_RESULT = join(import.meta.dirname, "results", "peers.json");

/**
 * The ratios against the peers (issues 22 and 26) from the last side-by-side run of
 * bench/peers/run.ts, when its result is there: they need the peers measured in the same
 * minutes, which `npm run bench` does not do.
 */
export function peerTargetLines(file = PEERS_RESULT): string[] {
  const how = "node --import tsx bench/peers/run.ts";
  if (!existsSync(file)) {
    return [
      `steps/s / BullMQ's (>= 1.5x), PostgreSQL W1 / the best PostgreSQL peer's (>= 5x): not measured; ${how}`,
    ];
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as { date?: string; rows?: PeerRow[] };
  const lines = ratioLines(peerRatios(report.rows ?? []));
  return [`from ${how} of ${report.date ?? "an unknown date"}:`, ...lines.map((l) => `  ${l}`)];
}

/** The targets block: one line per target with this run's figure, then what is measured elsewhere. */
export function targetLines(figures: readonly Figure[]): string[] {
  const byName = new Map(figures.map((f) => [f.workload, f]));
  const lines = ["Targets (printed, never asserted):"];
  for (const t of TARGETS) {
    const v = t.value(byName);
    const shown = v === null ? "not measured in this run" : `${Number(v.toPrecision(3))}${t.unit}`;
    const verdict = v === null ? "" : t.met(v) ? "  met" : "  NOT MET";
    lines.push(`  ${t.what}: ${shown} (target ${t.goal})${verdict}`);
  }
  lines.push(`  ${submitCostLine()}`);
  const floors = [floorLine("W1"), floorLine("W3"), floorIdealLine("W4"), floorIdealLine("W4-fan")];
  for (const line of [...floors, floorPgLine(), floorPgW4Line(), ...peerTargetLines()])
    lines.push(`  ${line}`);
  return lines;
}
