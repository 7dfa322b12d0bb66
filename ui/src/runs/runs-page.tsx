// Runs in two views. *Queue* (the default): runs not ended, in dispatch order, what is still to
// do; drag a row to reorder. *History*: ended runs, newest first by their last change, searchable
// by title or id, filtered by status and by when they were created. The view and its filters
// are in the URL (`?view=history&status=failed&since=7d&q=…`), so a link opens them. The list is
// read a page at a time (`limit`): live events refetch only the rows shown, and "Show more"
// widens the page (up to the server's largest). Totals come from the counts endpoint. Rows can
// be ticked for an operation in bulk (bulk-bar.tsx).
import { useEffect, useMemo, useState } from "react";
import { get, getPage, query } from "../api/client.ts";
import type { RunCounts, RunSummary, WorkflowOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { useQuery } from "../live/query-cache.ts";
import { navigate, setSearchParam, useRoute } from "../router.tsx";
import type { BulkResult } from "./bulk.ts";
import { BulkBar, BulkResultNote } from "./bulk-bar.tsx";
import { RunsTable } from "./runs-table.tsx";
import { SubmitRunDialog } from "./submit-run.tsx";
import { useSelection } from "./use-selection.ts";

type View = "queue" | "history";
const VIEW_STATUSES: Record<View, string[]> = {
  queue: ["queued", "running", "paused"],
  history: ["completed", "failed", "cancelled"],
};
/** History's time range: created within this span back from now. */
const SINCE: Record<string, { label: string; ms: number }> = {
  "1h": { label: "Last hour", ms: 3_600_000 },
  "24h": { label: "Last 24 hours", ms: 86_400_000 },
  "7d": { label: "Last 7 days", ms: 7 * 86_400_000 },
  "30d": { label: "Last 30 days", ms: 30 * 86_400_000 },
};
/** Rows per page, and the most one request may ask for (the server's `limit` bound). */
export const PAGE = 100;
const MAX_PAGE = 1000;

/** Runs of these statuses (of one workflow, when given), from the counts. */
function counted(counts: RunCounts | undefined, statuses: string[], workflow: string) {
  if (!counts) return null;
  const of = (workflow ? (counts.by_workflow[workflow] ?? {}) : counts.by_status) as Record<
    string,
    number
  >;
  return statuses.reduce((n, s) => n + (of[s] ?? 0), 0);
}

export function RunsPage() {
  const { search } = useRoute();
  const view: View = search.get("view") === "history" ? "history" : "queue";
  const statuses = VIEW_STATUSES[view];
  const asked = search.get("status") ?? "";
  const status = statuses.includes(asked) ? asked : "";
  const workflow = search.get("workflow") ?? "";
  const q = search.get("q") ?? "";
  const sinceKey =
    view === "history" && SINCE[search.get("since") ?? ""] ? search.get("since")! : "";
  // Fixed when chosen, so the query (and its cache key) does not change on every render.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new instant per choice, not per render
  const since = useMemo(
    () => (sinceKey ? new Date(Date.now() - SINCE[sinceKey]!.ms).toISOString() : ""),
    [sinceKey, view],
  );
  const [typed, setTyped] = useState(q);
  const [limit, setLimit] = useState(PAGE);
  const [submitting, setSubmitting] = useState(false);
  const [result, setResult] = useState<BulkResult | null>(null);
  // A search typed settles for a moment before it is asked for (one request, not one per key).
  useEffect(() => {
    if (typed === q) return;
    const timer = setTimeout(() => setSearchParam("q", typed || null, true), 300);
    return () => clearTimeout(timer);
  }, [typed, q]);
  // New filters start again from the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a filter changes
  useEffect(() => setLimit(PAGE), [view, status, workflow, q, since]);
  const filters =
    view === "queue"
      ? query({ ended: false, status, workflow, q, limit })
      : query({ ended: true, sort: "updated", status, workflow, q, created_after: since, limit });
  const key = `runs${filters}`;
  const runs = useQuery(key, () => getPage<RunSummary>(`/api/runs${filters}`));
  const counts = useQuery("runs-counts", () => get<RunCounts>("/api/runs/counts"));
  const workflows = useQuery("workflows", () => get<WorkflowOut[]>("/api/workflows"));
  const list = runs.data?.items ?? [];
  const selection = useSelection(list, filters);
  const more = runs.data?.next != null;
  const queueCount = counted(counts.data, VIEW_STATUSES.queue, workflow);
  const historyCount = counted(counts.data, VIEW_STATUSES.history, workflow);
  // Counts know no titles or times: no total with a search or a time range.
  const total = q || since ? null : counted(counts.data, status ? [status] : statuses, workflow);
  const filtered = Boolean(status || workflow || q || since);
  const waiting = counts.data?.waiting_on_people ?? 0;
  const switchView = (next: View) => {
    if (next === view) return;
    const params = new URLSearchParams(search);
    params.delete("status");
    params.delete("since");
    if (next === "queue") params.delete("view");
    else params.set("view", next);
    const text = params.toString();
    navigate(`/runs${text ? `?${text}` : ""}`);
  };
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Runs</h1>
          <p className="muted">
            {view === "queue"
              ? "Queue: runs still to do, in dispatch order. The scheduler claims from the top; drag a row to reorder."
              : "History: ended runs, the latest to change first."}
          </p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setSubmitting(true)}>
          <Icon name="plus" /> New run
        </button>
      </div>
      <div className="tabs runs-views" role="tablist">
        {(["queue", "history"] as const).map((v) => (
          <button
            key={v}
            type="button"
            role="tab"
            data-view={v}
            aria-selected={view === v}
            className={view === v ? "tab tab-active" : "tab"}
            onClick={() => switchView(v)}
          >
            {v === "queue" ? "Queue" : "History"}
            <span className="tab-count" data-testid={`${v}-count`}>
              {(v === "queue" ? queueCount : historyCount)?.toLocaleString("en-US") ?? ""}
            </span>
          </button>
        ))}
        {waiting > 0 && (
          <button
            type="button"
            className="chip chip-warn waiting-count"
            data-testid="waiting-count"
            title="Runs whose every outstanding attempt waits on a person: answer them in the Inbox"
            onClick={() => navigate("/inbox")}
          >
            {waiting.toLocaleString("en-US")} waiting on you
          </button>
        )}
      </div>
      <div className="toolbar">
        <label className="filter filter-search">
          <span>Search</span>
          <input
            type="search"
            name="q"
            placeholder="Title or run id…"
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
            {statuses.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        {view === "history" && (
          <label className="filter">
            <span>Created</span>
            <select
              name="since"
              value={sinceKey}
              onChange={(e) => setSearchParam("since", e.target.value || null, true)}
            >
              <option value="">Any time</option>
              {Object.entries(SINCE).map(([k, v]) => (
                <option key={k} value={k}>
                  {v.label}
                </option>
              ))}
            </select>
          </label>
        )}
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
      {selection.ids.size > 0 && (
        <BulkBar
          selected={[...selection.ids]}
          onClear={selection.clear}
          onResult={(r) => setResult(r)}
        />
      )}
      {result && <BulkResultNote result={result} onClose={() => setResult(null)} />}
      {runs.error && <ErrorNote error={runs.error} />}
      <div className="card card-flush">
        {list.length > 0 ? (
          <RunsTable
            runs={list}
            queryKey={key}
            reorderable={view === "queue"}
            selection={selection}
          />
        ) : (
          <div className="empty">
            {runs.data ? (
              <>
                <h2>
                  {filtered
                    ? "No runs match these filters"
                    : view === "queue"
                      ? "Nothing queued"
                      : "No ended runs yet"}
                </h2>
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
              Showing the first {MAX_PAGE.toLocaleString("en-US")}
              {view === "queue" ? " in dispatch order" : ", newest first"}: search or filter to find
              the others.
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
