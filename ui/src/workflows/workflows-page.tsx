// Workflows: the registered list, a register button, and one workflow's detail when selected.
import { useState } from "react";
import { get } from "../api/client.ts";
import type { WorkflowOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { useQuery } from "../live/query-cache.ts";
import { Link, navigate } from "../router.tsx";
import { WorkflowDetail } from "./workflow-detail.tsx";
import { WorkflowDialog } from "./workflow-dialogs.tsx";

export function WorkflowsPage({ selected }: { selected: string | null }) {
  const list = useQuery("workflows", () => get<WorkflowOut[]>("/api/workflows"));
  const [registering, setRegistering] = useState(false);
  if (selected) return <WorkflowDetail key={selected} name={selected} />;
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Workflows</h1>
          <p className="muted">
            Registered graphs, the pool each dispatches on, and their plugins.
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setRegistering(true)}>
          <Icon name="plus" /> Register workflow
        </button>
      </div>
      {list.error && <ErrorNote error={list.error} />}
      <div className="card card-flush">
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th className="col-num">Nodes</th>
              <th>Start</th>
              <th>Pool</th>
              <th className="col-num">Slots</th>
              <th>Plugin</th>
              <th>Target</th>
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((w) => (
              <tr key={w.name} data-workflow={w.name}>
                <td>
                  <Link to={`/workflows/${w.name}`} className="run-link mono">
                    {w.name}
                  </Link>
                </td>
                <td className="col-num num">{Object.keys(w.nodes).length}</td>
                <td>
                  <code>{w.start}</code>
                </td>
                <td>{w.pool}</td>
                <td className="col-num num">
                  {w.in_flight}/{w.capacity}
                </td>
                <td className="muted small">
                  {plural(w.plugin.actions.length, "action")} ·{" "}
                  {plural(w.plugin.panels.length, "panel")}
                </td>
                <td className="muted small mono ellipsis" title={w.target ?? ""}>
                  {w.target ?? "programmatic"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && list.data.length === 0 && (
          <div className="empty muted">No workflow is registered.</div>
        )}
      </div>
      {registering && (
        <WorkflowDialog
          existing={null}
          onClose={() => setRegistering(false)}
          onDone={(name) => {
            setRegistering(false);
            navigate(`/workflows/${name}`);
          }}
        />
      )}
    </div>
  );
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
