// The workflow's nodes with their options (null options fall back to server defaults).
import type { WorkflowOut } from "../api/types.ts";

const opt = (v: number | null | undefined, unit = "") =>
  v === null || v === undefined ? "default" : `${v}${unit}`;

export function NodesTable({ workflow }: { workflow: WorkflowOut }) {
  const nodes = Object.entries(workflow.nodes).sort((a, b) => a[1].generation - b[1].generation);
  return (
    <section className="card" aria-label="Nodes">
      <h3 className="card-title">Nodes</h3>
      <ul className="node-list">
        {nodes.map(([name, n]) => (
          <li key={name}>
            <div className="node-line-head">
              <code className="chip chip-node">{name}</code>
              {name === workflow.start && <span className="chip chip-quiet">start</span>}
              <span className="muted small">→ {n.edges.length ? n.edges.join(", ") : "ends"}</span>
            </div>
            {n.description && <div className="small">{n.description}</div>}
            <div className="muted small">
              retries {opt(n.retries)} · timeout {n.timeout ? `${n.timeout} s` : "none"} · priority{" "}
              {opt(n.priority)}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
