// Short confirmations and failures of operator actions, in one corner, fading on their own.
import { useSyncExternalStore } from "react";

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

export function toast(text: string, tone: Toast["tone"] = "ok"): void {
  const id = nextId++;
  publish([...toasts.slice(-3), { id, text, tone }]);
  setTimeout(() => publish(toasts.filter((t) => t.id !== id)), tone === "error" ? 8000 : 3500);
}

export function ToastHost() {
  const list = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
  );
  return (
    <div className="toasts" role="status" aria-live="polite">
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.tone}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
