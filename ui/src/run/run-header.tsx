// The run's title line: status, workflow, id, times, pending requests, edit and lifecycle buttons.
import { useState } from "react";
import type { RunDetail } from "../api/types.ts";
import { CopyButton } from "../components/copy-button.tsx";
import { Markdown } from "../components/markdown.tsx";
import { StatusBadge } from "../components/status.tsx";
import { formatTime, TimeAgo } from "../components/time.tsx";
import { Link } from "../router.tsx";
import { RunButtons } from "../runs/run-buttons.tsx";
import { EditRunDialog } from "./edit-run.tsx";
import { addTotals, NONE, type TaskPhases, totalsText } from "./phases.ts";

export function RunHeader({
  run,
  phases,
}: {
  run: RunDetail;
  phases?: Map<number, TaskPhases> | null;
}) {
  const [editing, setEditing] = useState(false);
  return (
    <div className="run-head">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/runs">Runs</Link>
        <span aria-hidden="true">/</span>
        <span className="mono">{run.id}</span>
        <CopyButton text={run.id} what="run id" />
      </nav>
      <div className="page-head">
        <div className="run-title">
          <h1>{run.title}</h1>
          <div className="run-meta">
            <StatusBadge status={run.status} waiting={run.waiting_on_people === true} />
            <Link to={`/workflows/${run.workflow}`} className="chip">
              {run.workflow}
            </Link>
            <span className="muted">#{run.position} in dispatch</span>
            <span className="muted" title={formatTime(run.created)}>
              created <TimeAgo iso={run.created} />
            </span>
            <span className="muted">
              updated <TimeAgo iso={run.updated} />
            </span>
            {phases?.size ? (
              <span className="muted run-took" data-run-took>
                {totalsText([...phases.values()].map((p) => p.totals).reduce(addTotals, NONE))}
              </span>
            ) : null}
            {run.pending_requests ? (
              <Link to="/inbox" className="chip chip-amber">
                {run.pending_requests} waiting on you
              </Link>
            ) : null}
            {run.unregistered && <span className="chip chip-warn">workflow unregistered</span>}
          </div>
        </div>
        <div className="btn-row">
          <button type="button" className="btn" onClick={() => setEditing(true)}>
            Edit
          </button>
          <RunButtons run={run} afterDelete="/runs" />
        </div>
      </div>
      {editing && <EditRunDialog run={run} onClose={() => setEditing(false)} />}
      {run.description ? <Markdown text={run.description} className="run-desc" /> : null}
    </div>
  );
}
