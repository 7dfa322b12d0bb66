// Runs: the dispatch list with filters, a submit dialog, and global plugin cards above it.
import { useState } from "react";
import { get, query } from "../api/client.ts";
import type { RunSummary, WorkflowOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { useQuery } from "../live/query-cache.ts";
import { setSearchParam, useRoute } from "../router.tsx";
import { RunsTable } from "./runs-table.tsx";
import { SubmitRunDialog } from "./submit-run.tsx";

const STATUSES = ["queued", "running", "paused", "completed", "failed", "cancelled"];

export function RunsPage() {
  const { search } = useRoute();
  const status = search.get("status") ?? "";
  const workflow = search.get("workflow") ?? "";
  const [submitting, setSubmitting] = useState(false);
  const [fresh, setFresh] = useState<string | null>(null);
  const filters = query({ status, workflow });
  const key = filters ? `runs${filters}` : "runs";
  const runs = useQuery(key, () => get<RunSummary[]>(`/api/runs${filters}`));
  const workflows = useQuery("workflows", () => get<WorkflowOut[]>("/api/workflows"));
  const list = runs.data ?? [];
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">
            Dispatch order: the scheduler claims from the top. Drag a row to reorder.
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setSubmitting(true)}>
          <Icon name="plus" /> New run
        </button>
      </div>
      <div className="toolbar">
        <label className="filter">
          <span>Status</span>
          <select
            value={status}
            onChange={(e) => setSearchParam("status", e.target.value || null, true)}
          >
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="filter">
          <span>Workflow</span>
          <select
            value={workflow}
            onChange={(e) => setSearchParam("workflow", e.target.value || null, true)}
          >
            <option value="">All</option>
            {(workflows.data ?? []).map((w) => (
              <option key={w.name}>{w.name}</option>
            ))}
          </select>
        </label>
        <span className="muted toolbar-count">
          {runs.data ? `${list.length} run${list.length === 1 ? "" : "s"}` : ""}
        </span>
      </div>
      {runs.error && <ErrorNote error={runs.error} />}
      <div className="card card-flush">
        {list.length > 0 ? (
          <RunsTable runs={list} queryKey={key} fresh={fresh} />
        ) : (
          <div className="empty">
            {runs.data ? (
              <>
                <h2>No runs{filters ? " match these filters" : " yet"}</h2>
                <p className="muted">Submit a run of a registered workflow to see it here.</p>
              </>
            ) : (
              <p className="muted">Loading…</p>
            )}
          </div>
        )}
      </div>
      {submitting && (
        <SubmitRunDialog
          workflows={workflows.data ?? []}
          initial={workflow}
          onClose={() => setSubmitting(false)}
          onCreated={(id) => {
            setSubmitting(false);
            setFresh(id);
          }}
        />
      )}
    </div>
  );
}
