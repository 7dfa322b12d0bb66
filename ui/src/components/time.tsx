// Relative times ("3 min ago") that tick together once every 15 s; the exact time is the title.
import { useSyncExternalStore } from "react";

let now = Date.now();
const listeners = new Set<() => void>();
setInterval(() => {
  now = Date.now();
  for (const l of listeners) l();
}, 15_000);

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function ago(iso: string, at = Date.now()): string {
  const s = Math.max(0, Math.round((at - Date.parse(iso)) / 1000));
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}

export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return d.toLocaleString(undefined, {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

export function duration(from?: string | null, to?: string | null): string {
  if (!from || !to) return "—";
  const ms = Date.parse(to) - Date.parse(from);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}

/** The shared clock (ticks every 15 s): for views that show a duration still growing. */
export function useNow(): number {
  return Math.max(
    useSyncExternalStore(subscribe, () => now),
    0,
  );
}

export function TimeAgo({ iso }: { iso: string }) {
  const at = useSyncExternalStore(subscribe, () => now);
  return (
    <time className="muted nowrap" dateTime={iso} title={formatTime(iso)}>
      {ago(iso, Math.max(at, Date.now()))}
    </time>
  );
}
