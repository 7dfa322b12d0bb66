// Operations in bulk from the console: one POST /api/runs/bulk per click, by the runs selected
// or (a workflow's "Retry all failed") by a filter, following `next_cursor` until done.
import { post } from "../api/client.ts";
import type { BulkOut } from "../api/types.ts";
import { confirmAction } from "../components/dialog.tsx";
import { invalidate } from "../live/query-cache.ts";

export type BulkAction = "cancel" | "delete" | "retry_failed";

export const BULK_LABELS: Record<BulkAction, string> = {
  cancel: "Cancel",
  delete: "Delete",
  retry_failed: "Retry failed",
};

/** What one bulk answer (or several summed) did, as the bar shows it. */
export interface BulkResult {
  action: BulkAction;
  done: number;
  refused: BulkOut["refused"];
}

const refresh = () => invalidate(["runs", "run/", "graph/", "inbox", "workflow"]);

/** The selected runs, in one request; null when the operator did not confirm a delete. */
export async function bulkByIds(action: BulkAction, runIds: string[]): Promise<BulkResult | null> {
  if (action === "delete") {
    const n = runIds.length;
    const ok = await confirmAction({
      title: `Delete ${n} run${n === 1 ? "" : "s"}?`,
      body: "Each ended run selected is deleted with its attempts, log and events. Runs not ended are refused and stay.",
      confirm: "Delete runs",
    });
    if (!ok) return null;
  }
  try {
    const out = await post<BulkOut>("/api/runs/bulk", { action, run_ids: runIds });
    return { action, done: out.done, refused: out.refused };
  } finally {
    refresh();
  }
}

/** Every failed run of a workflow retried: pages of the filter until `more` is false. */
export async function retryAllFailed(workflow: string): Promise<BulkResult> {
  const result: BulkResult = { action: "retry_failed", done: 0, refused: [] };
  let cursor: string | null | undefined;
  try {
    for (let page = 0; page < 1000; page++) {
      const body: Record<string, unknown> = {
        action: "retry_failed",
        filter: { workflow, status: "failed" },
      };
      if (cursor) body.cursor = cursor;
      const out = await post<BulkOut>("/api/runs/bulk", body);
      result.done += out.done;
      result.refused.push(...out.refused);
      if (!out.more || !out.next_cursor) break;
      cursor = out.next_cursor;
    }
  } finally {
    refresh();
  }
  return result;
}

export function resultText(r: BulkResult): string {
  return `${r.done} done, ${r.refused.length} refused`;
}
