// Drawing panel data by kind (http-api.md, "Source shape by kind"). Plugin data is untrusted:
// markdown goes through the sanitizer, everything else is rendered as text.
import { jsonText } from "../components/json-view.tsx";
import { Markdown } from "../components/markdown.tsx";
import { formatTime } from "../components/time.tsx";
import { Chart } from "./chart.tsx";

export const DATA_KINDS = ["markdown", "kv", "table", "log", "chart", "dashboard"] as const;
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function cell(v: unknown): string {
  if (v === null || v === undefined) return "—";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return jsonText(v);
}

function Kv({ value }: { value: Obj }) {
  return (
    <dl className="kv">
      {Object.entries(value).map(([k, v]) => (
        <div key={k} className="kv-row">
          <dt>{k}</dt>
          <dd className={typeof v === "number" ? "num" : ""}>{cell(v)}</dd>
        </div>
      ))}
    </dl>
  );
}

export function DataTable({ value }: { value: { columns: string[]; rows: unknown[] } }) {
  return (
    <div className="table-scroll">
      <table className="table table-compact">
        <thead>
          <tr>
            {value.columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {value.rows.map((row, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <tr key={i}>
              {value.columns.map((c, j) => (
                <td key={c}>
                  {cell(Array.isArray(row) ? row[j] : isObj(row) ? row[c] : undefined)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function LogLines({ value }: { value: unknown[] }) {
  return (
    <ol className="panel-log">
      {value.map((entry, i) => {
        const e = isObj(entry) ? entry : { text: cell(entry) };
        const who = e.author ?? e.kind ?? e.level;
        return (
          <li
            key={typeof e.id === "number" ? e.id : i}
            className={who ? `line line-${String(who)}` : "line"}
          >
            {typeof e.created === "string" && (
              <time className="muted">{formatTime(e.created)}</time>
            )}
            {who !== undefined && <span className="chip chip-quiet">{String(who)}</span>}
            <span className="line-text">{cell(e.text ?? e.message ?? entry)}</span>
          </li>
        );
      })}
    </ol>
  );
}

function Metrics({ metrics }: { metrics: unknown }) {
  const list: Obj[] = Array.isArray(metrics)
    ? metrics.map((m) => (isObj(m) ? m : { label: "", value: m }))
    : Object.entries(metrics as Obj).map(([label, value]) => ({ label, value }));
  return (
    <div className="metrics">
      {list.map((m, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: metrics may repeat labels
        <div key={i} className="metric">
          <div className="metric-value num">
            {cell(m.value)}
            {typeof m.unit === "string" && <span className="metric-unit">{m.unit}</span>}
          </div>
          <div className="metric-label">{cell(m.label ?? m.name ?? "")}</div>
        </div>
      ))}
    </div>
  );
}

export function DataPanel({ kind, value }: { kind: string; value: unknown }) {
  switch (kind) {
    case "markdown":
      return <Markdown text={typeof value === "string" ? value : cell(value)} />;
    case "kv":
      return isObj(value) ? <Kv value={value} /> : <pre>{cell(value)}</pre>;
    case "table":
      return isObj(value) && Array.isArray(value.columns) ? (
        <DataTable value={value as never} />
      ) : (
        <pre>{cell(value)}</pre>
      );
    case "log":
      return Array.isArray(value) ? <LogLines value={value} /> : <pre>{cell(value)}</pre>;
    case "chart":
      return isObj(value) && Array.isArray(value.series) ? (
        <Chart series={value.series} kind={String(value.kind ?? "line")} />
      ) : (
        <pre>{cell(value)}</pre>
      );
    default: {
      const d = isObj(value) ? value : {};
      return (
        <div className="dashboard">
          {typeof d.note === "string" && <Markdown text={d.note} />}
          {d.metrics !== undefined && <Metrics metrics={d.metrics} />}
          {isObj(d.table) && Array.isArray(d.table.columns) && (
            <DataTable value={d.table as never} />
          )}
        </div>
      );
    }
  }
}
