// Short confirmations and failures of operator actions, in one corner, fading on their own.
// An open modal <dialog> sits in the browser's top layer, above anything z-index can lift, and
// makes the page behind it inert: while one is open the toasts are drawn inside it (the topmost
// one), so they stay visible and readable; they go back to the page when it closes.
import { useSyncExternalStore } from "react";
import { createPortal } from "react-dom";

interface Toast {
  id: number;
  text: string;
  tone: "ok" | "error";
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const publish = (next: Toast[]) => {
  toasts = next;
  for (const l of listeners) l();
};

/** Shows `text`; the same words already shown are replaced (their time starts again), not piled. */
export function toast(text: string, tone: Toast["tone"] = "ok"): void {
  const id = nextId++;
  const others = toasts.filter((t) => t.text !== text || t.tone !== tone);
  publish([...others.slice(-3), { id, text, tone }]);
  setTimeout(() => publish(toasts.filter((t) => t.id !== id)), tone === "error" ? 8000 : 3500);
}

let layers: HTMLElement[] = [];
const layerListeners = new Set<() => void>();
const setLayers = (next: HTMLElement[]) => {
  layers = next;
  for (const l of layerListeners) l();
};

/** Draws the toasts inside `dialog` (an open modal) until the returned function is called. */
export function raiseToasts(dialog: HTMLElement): () => void {
  setLayers([...layers, dialog]);
  return () => setLayers(layers.filter((d) => d !== dialog));
}

const subscribe = (set: Set<() => void>) => (l: () => void) => {
  set.add(l);
  return () => {
    set.delete(l);
  };
};
const onToasts = subscribe(listeners);
const onLayers = subscribe(layerListeners);

export function ToastHost() {
  const list = useSyncExternalStore(onToasts, () => toasts);
  const layer = useSyncExternalStore(onLayers, () => layers.at(-1) ?? null);
  const region = (
    <div className="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
  return layer ? createPortal(region, layer) : region;
}
