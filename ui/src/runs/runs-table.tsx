// The dispatch list: one row per run in position order, reorderable by dragging the grip.
import { useEffect, useRef, useState } from "react";
import { enc, type Page, post } from "../api/client.ts";
import type { RunSummary } from "../api/types.ts";
import { errorText } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { StatusBadge } from "../components/status.tsx";
import { TimeAgo } from "../components/time.tsx";
import { toast } from "../components/toast.tsx";
import { invalidate, setQueryData } from "../live/query-cache.ts";
import { Link } from "../router.tsx";
import { RunButtons } from "./run-buttons.tsx";
import { moved, useRowDrag } from "./use-row-drag.ts";

async function reorder(queryKey: string, runs: RunSummary[], from: number, to: number) {
  const run = runs[from];
  // The index is in the whole list: land where the neighbour we dropped beside stands now.
  const index = runs[to].position - 1;
  setQueryData<Page<RunSummary>>(queryKey, (old) => ({
    items: moved(old?.items ?? runs, from, to),
    next: old?.next ?? null,
  }));
  try {
    await post(`/api/runs/${enc(run.id)}/position`, { index });
  } catch (err) {
    toast(`Reorder failed: ${errorText(err)}`, "error");
  } finally {
    invalidate(["runs"]);
  }
}

function CurrentNodes({ nodes }: { nodes?: string[] }) {
  if (!nodes?.length) return <span className="muted">—</span>;
  const shown = nodes.slice(0, 3);
  return (
    <span className="node-chips">
      {shown.map((n, i) => (
        // Under fan-out one node appears once per branch.
        // biome-ignore lint/suspicious/noArrayIndexKey: names repeat, their order is the identity
        <code key={`${n}-${i}`} className="chip chip-node">
          {n}
        </code>
      ))}
      {nodes.length > 3 && <span className="muted">+{nodes.length - 3}</span>}
    </span>
  );
}

export function RunsTable({ runs, queryKey }: { runs: RunSummary[]; queryKey: string }) {
  const body = useRef<HTMLTableSectionElement>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const { drag, handleProps, rowClass } = useRowDrag(body, runs.length, (from, to) => {
    setFocusId(runs[from].id);
    void reorder(queryKey, runs, from, to);
  });
  useEffect(() => {
    if (focusId) body.current?.querySelector<HTMLElement>(`[data-grip="${focusId}"]`)?.focus();
  }, [focusId]);
  return (
    <table className={drag ? "table runs-table is-dragging" : "table runs-table"}>
      <thead>
        <tr>
          <th className="col-grip" aria-label="Reorder" />
          <th className="col-pos">#</th>
          <th className="col-status">Status</th>
          <th>Title</th>
          <th className="col-wf">Workflow</th>
          <th className="col-nodes">Current nodes</th>
          <th className="col-req">Requests</th>
          <th className="col-updated">Updated</th>
          <th className="col-actions" aria-label="Actions" />
        </tr>
      </thead>
      <tbody ref={body}>
        {runs.map((r, i) => (
          <tr key={r.id} data-row data-run-id={r.id} className={rowClass(i)}>
            <td className="col-grip">
              <button
                type="button"
                className="grip"
                data-grip={r.id}
                aria-label={`Move ${r.title} (arrow keys)`}
                title="Drag to reorder, or focus and use ↑ ↓"
                {...handleProps(i)}
              >
                <Icon name="grip" />
              </button>
            </td>
            <td className="col-pos num muted">{r.position}</td>
            <td className="col-status">
              <StatusBadge status={r.status} />
            </td>
            <td className="col-title">
              <Link to={`/runs/${r.id}`} className="run-link">
                {r.title}
              </Link>
              {r.unregistered && <span className="chip chip-warn">unregistered</span>}
            </td>
            <td className="col-wf">
              <code className="chip">{r.workflow}</code>
            </td>
            <td className="col-nodes">
              <CurrentNodes nodes={r.current_nodes} />
            </td>
            <td className="col-req">
              {r.pending_requests ? (
                <Link to="/inbox" className="req-badge" title="Pending requests">
                  {r.pending_requests}
                </Link>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td className="col-updated">
              <TimeAgo iso={r.updated} />
            </td>
            <td className="col-actions">
              <RunButtons run={r} compact />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
