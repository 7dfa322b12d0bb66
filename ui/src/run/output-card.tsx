// The run's output (one value, or a list in branch order) and its agent totals.
import type { RunDetail } from "../api/types.ts";
import { JsonView } from "../components/json-view.tsx";
import { branchText } from "./tasks-table.tsx";

export function OutputCard({ run }: { run: RunDetail }) {
  const outputs = run.outputs ?? [];
  return (
    <section className="card" aria-label="Output">
      <h3 className="card-title">Output</h3>
      {run.status === "completed" ? (
        <>
          <JsonView value={run.output ?? null} open />
          {outputs.length > 1 && (
            <ul className="outputs">
              {outputs.map((o) => (
                <li key={o.task_id}>
                  <code className="chip chip-node">{o.node}</code>
                  <span className="muted mono">#{o.task_id}</span>
                  <span className="muted">{branchText(o.branch)}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="muted small">
          {run.status === "failed" || run.status === "cancelled"
            ? `The run ${run.status} without an output.`
            : "Appears when the run completes."}
        </p>
      )}
    </section>
  );
}

const STAT_LABELS: Record<string, string> = {
  total_tokens: "Tokens",
  input_tokens: "Input tokens",
  output_tokens: "Output tokens",
  tool_calls: "Tool calls",
  duration_s: "Agent time",
  cost: "Cost",
};

function statValue(key: string, value: number): string {
  if (key === "duration_s") return `${value.toFixed(1)} s`;
  if (key === "cost") return `$${value.toFixed(4)}`;
  return value.toLocaleString();
}

export function StatsCard({ run }: { run: RunDetail }) {
  const stats = Object.entries(run.stats ?? {}).filter(([, v]) => typeof v === "number") as [
    string,
    number,
  ][];
  if (!stats.length) return null;
  return (
    <section className="card" aria-label="Agent totals">
      <h3 className="card-title">Agent totals</h3>
      <dl className="kv">
        {stats.map(([k, v]) => (
          <div key={k} className="kv-row">
            <dt>{STAT_LABELS[k] ?? k}</dt>
            <dd className="num">{statValue(k, v)}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
