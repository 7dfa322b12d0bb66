// The dispatch list: one row per run in position order, reorderable by dragging the grip.
// Past one page of rows (VIRTUAL_FROM) only the rows in and near the viewport are in the DOM
// (@tanstack/react-virtual over the document's scroll), so a widened list of 1,000 runs
// renders and updates like a page of 100.
import { useWindowVirtualizer } from "@tanstack/react-virtual";
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from "react";
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

/** Lists longer than this render only the rows near the viewport. */
export const VIRTUAL_FROM = 100;
const ROW_ESTIMATE = 49;

/** The height of the rows a virtualized list leaves out, above or below its window. */
function Gap({ height }: { height: number }) {
  return (
    <tr className="row-gap" style={{ height }}>
      <td colSpan={10} />
    </tr>
  );
}

/** Rows to render: all of a short list; of a long one, the window the virtualizer asks for. */
function useRowWindow(count: number, body: RefObject<HTMLTableSectionElement | null>) {
  const [margin, setMargin] = useState(0);
  const virtual = count > VIRTUAL_FROM;
  // Where the rows start in the document, so the virtualizer maps the page's scroll to rows.
  useLayoutEffect(() => {
    if (!virtual || !body.current) return;
    setMargin(body.current.getBoundingClientRect().top + window.scrollY);
  }, [virtual, body]);
  const rows = useWindowVirtualizer({
    count: virtual ? count : 0,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 15,
    scrollMargin: margin,
  });
  if (!virtual)
    return { indexes: [...Array(count).keys()], before: 0, after: 0, measure: undefined };
  const items = rows.getVirtualItems();
  const first = items[0];
  const last = items.at(-1);
  return {
    indexes: items.map((item) => item.index),
    before: first ? first.start - margin : 0,
    after: last ? rows.getTotalSize() - (last.end - margin) : 0,
    measure: rows.measureElement,
  };
}

/** The rows ticked for an operation in bulk, and how a click changes them. */
export interface Selection {
  ids: ReadonlySet<string>;
  /** A row's box clicked; with shift, every row between the last click and this one. */
  toggle(index: number, shift: boolean): void;
  /** The header's box: every row shown on the page, or none. */
  toggleAll(): void;
}

export function RunsTable({
  runs,
  queryKey,
  reorderable = true,
  selection,
}: {
  runs: RunSummary[];
  queryKey: string;
  /** Dragging rows reorders the dispatch list (the Queue view only). */
  reorderable?: boolean;
  selection?: Selection;
}) {
  const body = useRef<HTMLTableSectionElement>(null);
  const shown = useRowWindow(runs.length, body);
  const [focusId, setFocusId] = useState<string | null>(null);
  const { drag, handleProps, rowClass } = useRowDrag(body, runs.length, (from, to) => {
    setFocusId(runs[from].id);
    void reorder(queryKey, runs, from, to);
  });
  const all =
    selection !== undefined && runs.length > 0 && runs.every((r) => selection.ids.has(r.id));
  useEffect(() => {
    if (focusId) body.current?.querySelector<HTMLElement>(`[data-grip="${focusId}"]`)?.focus();
  }, [focusId]);
  return (
    <table className={drag ? "table runs-table is-dragging" : "table runs-table"}>
      <thead>
        <tr>
          <th className="col-select">
            {selection && (
              <input
                type="checkbox"
                aria-label="Select every run on this page"
                data-select-all
                checked={all}
                onChange={() => selection.toggleAll()}
              />
            )}
          </th>
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
        {shown.before > 0 && <Gap height={shown.before} />}
        {shown.indexes
          .map((i) => ({ r: runs[i], i }))
          .map(({ r, i }) => (
            <tr
              key={r.id}
              data-row
              data-index={i}
              ref={shown.measure}
              data-run-id={r.id}
              className={rowClass(i)}
            >
              <td className="col-select">
                {selection && (
                  <input
                    type="checkbox"
                    aria-label={`Select ${r.title}`}
                    data-select={r.id}
                    checked={selection.ids.has(r.id)}
                    onClick={(e) => selection.toggle(i, e.shiftKey)}
                    readOnly
                  />
                )}
              </td>
              <td className="col-grip">
                {reorderable && (
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
                )}
              </td>
              <td className="col-pos num muted">{r.position}</td>
              <td className="col-status">
                <StatusBadge status={r.status} waiting={r.waiting_on_people === true} />
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
        {shown.after > 0 && <Gap height={shown.after} />}
      </tbody>
    </table>
  );
}
