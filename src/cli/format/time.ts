// Times as an operator reads them: how long ago, and the wall-clock time of an event.

/** "just now", "42s ago", "5m ago", "3h ago", "2d ago"; "in 5s" for a time ahead of the clock. */
export function relativeTime(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return "-";
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return iso;
  const seconds = Math.round((now - then) / 1000);
  if (Math.abs(seconds) < 2) return "just now";
  const span = compactDuration(Math.abs(seconds));
  return seconds > 0 ? `${span} ago` : `in ${span}`;
}

/** 42s, 5m, 3h, 2d: the largest whole unit. */
export function compactDuration(seconds: number): string {
  if (seconds < 60) return `${Math.floor(seconds)}s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}

/** A duration with sub-second precision where it matters: 0.25s, 3.1s, 2m05s. */
export function preciseDuration(seconds: number): string {
  if (seconds < 10) return `${Number(seconds.toFixed(2))}s`;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  const rest = Math.floor(seconds % 60);
  return `${minutes}m${String(rest).padStart(2, "0")}s`;
}

/** Seconds between two timestamps, or null when either is missing. */
export function secondsBetween(from?: string | null, to?: string | null): number | null {
  if (!from || !to) return null;
  return (Date.parse(to) - Date.parse(from)) / 1000;
}

/** HH:MM:SS in local time, for event and log lines. */
export function clockTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
