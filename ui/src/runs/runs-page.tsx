// Runs: the dispatch list with filters and a title search, a submit dialog, and global plugin
// cards above it. The list is read a page at a time (`limit`), so a server holding 10,000 runs
// answers each refetch with a bounded page: live events refetch only the rows shown, and
// "Show more" widens the page (up to the server's largest). Totals come from the counts endpoint.
import { useEffect, useState } from "react";
import { get, getPage, query } from "../api/client.ts";
import type { RunCounts, RunSummary, WorkflowOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { useQuery } from "../live/query-cache.ts";
import { navigate, setSearchParam, useRoute } from "../router.tsx";
import { RunsTable } from "./runs-table.tsx";
import { SubmitRunDialog } from "./submit-run.tsx";

const STATUSES = ["queued", "running", "paused", "completed", "failed", "cancelled"];
/** Rows per page, and the most one request may ask for (the server's `limit` bound). */
export const PAGE = 100;
const MAX_PAGE = 1000;

/** How many runs the filters match, from the counts; null with a search (counts know no titles). */
function matching(counts: RunCounts | undefined, status: string, workflow: string, q: string) {
  if (!counts || q) return null;
  if (workflow) {
    const of = (counts.by_workflow[workflow] ?? {}) as Record<string, number>;
    return status ? (of[status] ?? 0) : Object.values(of).reduce((a, b) => a + b, 0);
  }
  return status ? ((counts.by_status as Record<string, number>)[status] ?? 0) : counts.total;
}

export function RunsPage() {
  const { search } = useRoute();
  const status = search.get("status") ?? "";
  const workflow = search.get("workflow") ?? "";
  const q = search.get("q") ?? "";
  const [typed, setTyped] = useState(q);
  const [limit, setLimit] = useState(PAGE);
  const [submitting, setSubmitting] = useState(false);
  // A search typed settles for a moment before it is asked for (one request, not one per key).
  useEffect(() => {
    if (typed === q) return;
    const timer = setTimeout(() => setSearchParam("q", typed || null, true), 300);
    return () => clearTimeout(timer);
  }, [typed, q]);
  // New filters start again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a filter changes
  useEffect(() => setLimit(PAGE), [status, workflow, q]);
  const filters = query({ status, workflow, q, limit });
  const key = `runs${filters}`;
  const runs = useQuery(key, () => getPage<RunSummary>(`/api/runs${filters}`));
  const counts = useQuery("runs-counts", () => get<RunCounts>("/api/runs/counts"));
  const workflows = useQuery("workflows", () => get<WorkflowOut[]>("/api/workflows"));
  const list = runs.data?.items ?? [];
  const more = runs.data?.next != null;
  const total = matching(counts.data, status, workflow, q);
  const filtered = Boolean(status || workflow || q);
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
        <label className="filter filter-search">
          <span>Search</span>
          <input
            type="search"
            name="q"
            placeholder="Title contains…"
            value={typed}
            maxLength={1000}
            onChange={(e) => setTyped(e.target.value)}
          />
        </label>
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
        <span className="muted toolbar-count" data-testid="runs-count">
          {runs.data ? countText(list.length, total, more) : ""}
        </span>
      </div>
      {runs.error && <ErrorNote error={runs.error} />}
      <div className="card card-flush">
        {list.length > 0 ? (
          <RunsTable runs={list} queryKey={key} />
        ) : (
          <div className="empty">
            {runs.data ? (
              <>
                <h2>No runs{filtered ? " match these filters" : " yet"}</h2>
                <p className="muted">Submit a run of a registered workflow to see it here.</p>
              </>
            ) : (
              <p className="muted">Loading…</p>
            )}
          </div>
        )}
      </div>
      {more && (
        <div className="list-more">
          {limit < MAX_PAGE ? (
            <button
              type="button"
              className="btn"
              onClick={() => setLimit((n) => Math.min(MAX_PAGE, n + PAGE))}
            >
              Show {PAGE} more
            </button>
          ) : (
            <p className="muted">
              Showing the first {MAX_PAGE.toLocaleString("en-US")} in dispatch order: search or
              filter to find the others.
            </p>
          )}
        </div>
      )}
      {submitting && (
        <SubmitRunDialog
          workflows={workflows.data ?? []}
          initial={workflow}
          onClose={() => setSubmitting(false)}
          onCreated={(id) => {
            setSubmitting(false);
            // The operator wants to watch what they just started.
            navigate(`/runs/${encodeURIComponent(id)}`);
          }}
        />
      )}
    </div>
  );
}

function countText(shown: number, total: number | null, more: boolean): string {
  const runs = (n: number) => `${n.toLocaleString("en-US")} run${n === 1 ? "" : "s"}`;
  if (total !== null && total > shown) return `${shown.toLocaleString("en-US")} of ${runs(total)}`;
  return more ? `${runs(shown)}, more below` : runs(shown);
}
