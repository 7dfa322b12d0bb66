// Drag to reorder with the pointer (a grip per row) or the keyboard (arrows on the grip).
// While dragging, `over` is the index the row would land at in the list without it.
import { type KeyboardEvent, type PointerEvent, type RefObject, useState } from "react";

export interface DragState {
  from: number;
  over: number;
}

// Rows carry their list index (`data-index`): a virtualized list renders only a window of them,
// and every row before the window is above the pointer.
function landingIndex(body: HTMLElement, from: number, y: number): number {
  const rows = [...body.querySelectorAll<HTMLElement>(":scope > [data-row]")];
  const first = Number(rows[0]?.dataset.index ?? 0);
  let over = first - (from < first ? 1 : 0);
  for (const row of rows) {
    if (Number(row.dataset.index) === from) continue;
    const r = row.getBoundingClientRect();
    if (y > r.top + r.height / 2) over++;
  }
  return over;
}

export function useRowDrag(
  body: RefObject<HTMLElement | null>,
  count: number,
  onMove: (from: number, to: number) => void,
) {
  const [drag, setDrag] = useState<DragState | null>(null);

  const handleProps = (index: number) => ({
    onPointerDown: (e: PointerEvent<HTMLElement>) => {
      if (e.button !== 0) return;
      e.preventDefault();
      e.currentTarget.setPointerCapture(e.pointerId);
      setDrag({ from: index, over: index });
    },
    onPointerMove: (e: PointerEvent<HTMLElement>) => {
      if (!drag || !body.current) return;
      const over = landingIndex(body.current, drag.from, e.clientY);
      if (over !== drag.over) setDrag({ ...drag, over });
    },
    onPointerUp: (e: PointerEvent<HTMLElement>) => {
      if (!drag) return;
      e.currentTarget.releasePointerCapture(e.pointerId);
      setDrag(null);
      if (drag.over !== drag.from) onMove(drag.from, drag.over);
    },
    onPointerCancel: () => setDrag(null),
    onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
      const to = e.key === "ArrowUp" ? index - 1 : e.key === "ArrowDown" ? index + 1 : null;
      if (to === null) return;
      e.preventDefault();
      if (to >= 0 && to < count) onMove(index, to);
    },
  });

  /** "drop-before" / "drop-after" marks the row the dragged one lands beside. */
  const rowClass = (index: number): string => {
    if (!drag) return "";
    if (index === drag.from) return "dragging";
    if (drag.over === drag.from) return "";
    if (drag.over > drag.from && index === drag.over) return "drop-after";
    if (drag.over < drag.from && index === drag.over) return "drop-before";
    return "";
  };

  return { drag, handleProps, rowClass };
}

export function moved<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}
