// One workload's figures: the fields issue 8 asks for (null where they do not apply) plus a few
// extras that explain them. Also percentiles, the median over repetitions, and the printed table.

export interface Figure {
  workload: string;
  runs_per_s: number | null;
  steps_per_s: number | null;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
  ratio: number | null;
  rss_mib: number | null;
  /** Anything else worth reading next to the figures (sizes, wall time, failures). */
  [extra: string]: number | string | null | undefined;
}

export const BLANK = {
  runs_per_s: null,
  steps_per_s: null,
  p50_ms: null,
  p95_ms: null,
  p99_ms: null,
  ratio: null,
  rss_mib: null,
} as const;

/** Nearest-rank percentile of `values` (unsorted); null for none. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

export function latencies(values: readonly number[]) {
  return {
    p50_ms: round(percentile(values, 50)),
    p95_ms: round(percentile(values, 95)),
    p99_ms: round(percentile(values, 99)),
  };
}

/** Rounds for display and JSON: 3 significant digits below 100, integers above. */
export function round(value: number | null): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  if (Math.abs(value) >= 100) return Math.round(value);
  return Number(value.toPrecision(3));
}

/** Field by field median of repetitions of one workload (strings from the first). */
export function medianFigure(reps: readonly Figure[]): Figure {
  const out: Figure = { ...reps[0] };
  for (const key of Object.keys(out)) {
    const nums = reps.map((r) => r[key]).filter((v): v is number => typeof v === "number");
    if (nums.length !== reps.length) continue;
    out[key] = round(percentile(nums, 50));
  }
  if (reps.length > 1) out.repetitions = reps.length;
  return out;
}

export type Columns = Array<[keyof Figure & string, string]>;

const COLUMNS: Columns = [
  ["workload", "workload"],
  ["runs_per_s", "runs/s"],
  ["steps_per_s", "steps/s"],
  ["p50_ms", "p50 ms"],
  ["p95_ms", "p95 ms"],
  ["p99_ms", "p99 ms"],
  ["ratio", "ratio"],
  ["rss_mib", "RSS MiB"],
  ["note", "note"],
];

function cell(value: unknown): string {
  if (value === null || value === undefined) return "-";
  if (typeof value === "number") return value.toLocaleString("en-US");
  return String(value);
}

/** A plain-text table, one row per workload (or per figure, with other columns). */
export function table(figures: readonly Figure[], columns: Columns = COLUMNS): string {
  const rows = [
    columns.map(([, title]) => title),
    ...figures.map((f) => columns.map(([k]) => cell(f[k]))),
  ];
  const widths = columns.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join("  ")
      .trimEnd();
  return [
    line(rows[0]),
    widths.map((w) => "-".repeat(w)).join("  "),
    ...rows.slice(1).map(line),
  ].join("\n");
}
