// The shape a panel's data must have, by kind (http-api.md "Plugin manifest", source shape by
// kind). A client renders the data as the kind says, so a misfit is the plugin's fault and is
// refused here (plugin_error) instead of reaching a client that would draw garbage.
import type { DataKind } from "./types.ts";

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function tableProblem(value: unknown, what: string): string | null {
  if (!isObject(value)) return `${what} must be an object { columns, rows }`;
  const { columns, rows } = value;
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== "string")) {
    return `${what}.columns must be an array of strings`;
  }
  if (!Array.isArray(rows)) return `${what}.rows must be an array`;
  const bad = rows.findIndex((r) => !Array.isArray(r) && !isObject(r));
  if (bad !== -1) return `${what}.rows[${bad}] must be an array of cells or an object`;
  return null;
}

function chartProblem(value: unknown): string | null {
  if (!isObject(value)) return "a chart must be an object { series, kind }";
  if (!Array.isArray(value.series)) return "chart.series must be an array";
  if (typeof value.kind !== "string" || value.kind === "") {
    return 'chart.kind must be a non-empty string such as "line" or "bar"';
  }
  return null;
}

function dashboardProblem(value: unknown): string | null {
  if (!isObject(value)) return "a dashboard must be an object { metrics, note?, table? }";
  const { metrics, note, table } = value;
  if (!Array.isArray(metrics) && !isObject(metrics)) {
    return "dashboard.metrics must be an array or an object";
  }
  if (note !== undefined && note !== null && typeof note !== "string") {
    return "dashboard.note must be a string";
  }
  if (table !== undefined && table !== null) return tableProblem(table, "dashboard.table");
  return null;
}

/** Why `value` does not fit `kind`, or null when it does. */
export function shapeProblem(kind: DataKind, value: unknown): string | null {
  switch (kind) {
    case "markdown":
      return typeof value === "string" ? null : "markdown data must be a string";
    case "kv":
      return isObject(value) ? null : "kv data must be an object of keys and values";
    case "table":
      return tableProblem(value, "table data");
    case "log":
      return Array.isArray(value) ? null : "log data must be an array of entries";
    case "chart":
      return chartProblem(value);
    case "dashboard":
      return dashboardProblem(value);
  }
}

const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "an array" : typeof v);

/** The shape problem followed by what arrived, for the plugin_error sentence. */
export function describeMisfit(kind: DataKind, value: unknown): string | null {
  const problem = shapeProblem(kind, value);
  return problem === null ? null : `${problem} (got ${typeOf(value)})`;
}
