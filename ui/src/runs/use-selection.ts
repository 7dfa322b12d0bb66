// The runs ticked on the list for an operation in bulk: a click toggles one, a shift-click every
// row between the last click and this one (to the state of the clicked row), the header's box
// every row of the page. Changing the filters (another page of runs) clears the selection.
import { useCallback, useEffect, useRef, useState } from "react";
import type { RunSummary } from "../api/types.ts";
import type { Selection } from "./runs-table.tsx";

export function useSelection(
  runs: RunSummary[],
  filters: string,
): Selection & { clear: () => void } {
  const [ids, setIds] = useState<ReadonlySet<string>>(new Set());
  const anchor = useRef<number | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: clears when the filters change
  useEffect(() => {
    setIds(new Set());
    anchor.current = null;
  }, [filters]);
  const clear = useCallback(() => {
    setIds(new Set());
    anchor.current = null;
  }, []);
  const toggle = (index: number, shift: boolean) => {
    const run = runs[index];
    if (!run) return;
    // Read the anchor now: the updater runs later, after it has moved to this row.
    const from = shift && anchor.current !== null ? Math.min(anchor.current, index) : index;
    const to = shift && anchor.current !== null ? Math.max(anchor.current, index) : index;
    setIds((old) => {
      const next = new Set(old);
      const on = !old.has(run.id);
      for (let i = from; i <= to; i++) {
        const id = runs[i]?.id;
        if (id === undefined) continue;
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
    anchor.current = index;
  };
  const toggleAll = () => {
    setIds((old) => {
      const every = runs.length > 0 && runs.every((r) => old.has(r.id));
      return every ? new Set() : new Set(runs.map((r) => r.id));
    });
    anchor.current = null;
  };
  return { ids, toggle, toggleAll, clear };
}
