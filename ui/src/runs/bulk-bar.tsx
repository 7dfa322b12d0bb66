// The bar over the runs list while runs are selected: Cancel, Delete (confirmed), Retry failed,
// each one POST /api/runs/bulk for the selection, then "N done, M refused" with each refusal.
import { useState } from "react";
import { errorText } from "../components/error-note.tsx";
import { toast } from "../components/toast.tsx";
import { BULK_LABELS, type BulkAction, type BulkResult, bulkByIds, resultText } from "./bulk.ts";

export function BulkResultNote({ result, onClose }: { result: BulkResult; onClose: () => void }) {
  return (
    <div className="card bulk-result" role="status" data-testid="bulk-result">
      <div className="bulk-result-head">
        <strong>
          {BULK_LABELS[result.action]}: {resultText(result)}
        </strong>
        <button type="button" className="btn btn-small" onClick={onClose}>
          Dismiss
        </button>
      </div>
      {result.refused.length > 0 && (
        <ul className="bulk-refusals">
          {result.refused.map((r) => (
            <li key={r.run_id} data-refused={r.run_id}>
              <code>{r.run_id}</code> {r.code}: {r.message}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function BulkBar({
  selected,
  onClear,
  onResult,
}: {
  selected: string[];
  onClear: () => void;
  onResult: (result: BulkResult) => void;
}) {
  const [busy, setBusy] = useState(false);
  const act = (action: BulkAction) => async () => {
    setBusy(true);
    try {
      const result = await bulkByIds(action, selected);
      if (result) {
        onResult(result);
        onClear();
      }
    } catch (err) {
      toast(`${BULK_LABELS[action]} failed: ${errorText(err)}`, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="toolbar bulk-bar" data-testid="bulk-bar">
      <span className="bulk-count">{selected.length} selected</span>
      {(Object.keys(BULK_LABELS) as BulkAction[]).map((action) => (
        <button
          key={action}
          type="button"
          className={action === "delete" ? "btn btn-danger" : "btn"}
          disabled={busy}
          data-bulk={action}
          onClick={act(action)}
        >
          {BULK_LABELS[action]}
        </button>
      ))}
      <button type="button" className="btn btn-ghost" onClick={onClear} disabled={busy}>
        Clear selection
      </button>
    </div>
  );
}
