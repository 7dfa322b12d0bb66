// The ratios issues 22 and 26 judge Yardmaster by, from one side-by-side run of
// bench/peers/run.ts (rows tagged with the system measured), and the table that run prints.
// Pure: imports no peer package, so bench/targets.ts can use it without bench/peers installed.
import { type Columns, type Figure, table } from "../figures.ts";

/** Systems of a peers run, Yardmaster's two stores first. */
export const SYSTEMS = ["sqlite", "postgres", "dbos", "graphile", "pgboss", "bullmq"] as const;
export type System = (typeof SYSTEMS)[number];
export const POSTGRES_PEERS: readonly System[] = ["dbos", "graphile", "pgboss"];

export const SYSTEM_TITLES: Record<System, string> = {
  sqlite: "Yardmaster, SQLite",
  postgres: "Yardmaster, PostgreSQL",
  dbos: "DBOS",
  graphile: "graphile-worker",
  pgboss: "pg-boss",
  bullmq: "BullMQ + Redis",
};

export interface PeerRow extends Figure {
  system: System;
}

export interface Ratio {
  what: string;
  /** null when one side was not measured (or failed). */
  value: number | null;
  goal: string;
  met: boolean | null;
  /** Which figures made it, e.g. "2,232 / 2,762 steps/s". */
  from: string;
}

function steps(rows: readonly PeerRow[], system: System, workload: string): number | null {
  const row = rows.find((r) => r.system === system && r.workload === workload);
  return typeof row?.steps_per_s === "number" && row.steps_per_s > 0 ? row.steps_per_s : null;
}

const fmt = (v: number | null) => (v === null ? "-" : v.toLocaleString("en-US"));

function ratio(what: string, a: number | null, b: number | null, goal: number, from: string) {
  const value = a === null || b === null ? null : Number((a / b).toPrecision(3));
  return { what, value, goal: `>= ${goal}x`, met: value === null ? null : value >= goal, from };
}

/**
 * Issue 26: Yardmaster on SQLite over BullMQ, W1 and W3 steps/s (>= 1.5x). Issue 22: Yardmaster
 * on PostgreSQL over the best PostgreSQL peer's W1 steps/s (>= 5x).
 */
export function peerRatios(rows: readonly PeerRow[]): Ratio[] {
  const out: Ratio[] = [];
  for (const w of ["W1", "W3"]) {
    const a = steps(rows, "sqlite", w);
    const b = steps(rows, "bullmq", w);
    const from = `${fmt(a)} / ${fmt(b)} steps/s`;
    out.push(ratio(`${w} steps/s, Yardmaster SQLite / BullMQ`, a, b, 1.5, from));
  }
  const measured = POSTGRES_PEERS.map((p) => [p, steps(rows, p, "W1")] as const).filter(
    (e): e is readonly [System, number] => e[1] !== null,
  );
  const best = measured.sort((x, y) => y[1] - x[1])[0] ?? null;
  const pg = steps(rows, "postgres", "W1");
  const name = best ? SYSTEM_TITLES[best[0]] : "no PostgreSQL peer measured";
  const from = `${fmt(pg)} / ${fmt(best?.[1] ?? null)} steps/s (${name})`;
  out.push(
    ratio(
      "W1 steps/s, Yardmaster PostgreSQL / best PostgreSQL peer",
      pg,
      best?.[1] ?? null,
      5,
      from,
    ),
  );
  return out;
}

export function ratioLines(ratios: readonly Ratio[]): string[] {
  return ratios.map((r) => {
    const shown = r.value === null ? "not measured" : `${r.value}x`;
    const verdict = r.met === null ? "" : r.met ? "  met" : "  NOT MET";
    return `${r.what}: ${shown} (${r.from}; target ${r.goal})${verdict}`;
  });
}

const COLUMNS: Columns = [
  ["workload", "workload"],
  ["system", "system"],
  ["steps_per_s", "steps/s"],
  ["p50_ms", "p50 ms"],
  ["p99_ms", "p99 ms"],
  ["ratio", "W4 ratio"],
  ["cpu_ms_per_step", "CPU ms/step"],
  ["rss_mib", "RSS MiB"],
  ["note", "note"],
];

/** One plain-text table of every row, workload by workload. */
export function peersTable(rows: readonly PeerRow[]): string {
  return table(
    rows.map((r) => ({ ...r, system: SYSTEM_TITLES[r.system] })),
    COLUMNS,
  );
}
