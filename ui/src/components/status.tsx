// One colour per meaning, used by every badge, graph node and dot in the console: blue is
// working, amber is waiting on someone, indigo is queued, green is done, red is failed.
import type { NodeState, RunStatus } from "../api/types.ts";

export type Tone = "blue" | "amber" | "indigo" | "green" | "red" | "crimson" | "gray" | "idle";

const TONES: Record<RunStatus | NodeState, Tone> = {
  running: "blue",
  in_progress: "blue",
  waiting: "amber",
  paused: "amber",
  queued: "indigo",
  ready: "indigo",
  completed: "green",
  done: "green",
  failed: "red",
  dead_letter: "crimson",
  cancelled: "gray",
  idle: "idle",
};

export const toneOf = (status: string): Tone => TONES[status as RunStatus] ?? "gray";

const LABELS: Record<string, string> = {
  in_progress: "in progress",
  dead_letter: "dead letter",
};

export const statusLabel = (status: string) => LABELS[status] ?? status;

/**
 * A status badge. `waiting`: the run waits on a person (the run view's `waiting_on_people`), so
 * it reads *waiting on you* in amber; `data-status` keeps the run's own status.
 */
export function StatusBadge({
  status,
  pulse = true,
  waiting = false,
}: {
  status: string;
  pulse?: boolean;
  waiting?: boolean;
}) {
  const tone = waiting ? "amber" : toneOf(status);
  const live = pulse && (tone === "blue" || tone === "amber");
  return (
    <span className={`badge tone-${tone}`} data-status={status} data-waiting={waiting || undefined}>
      <span className={live ? "dot dot-live" : "dot"} aria-hidden="true" />
      {waiting ? "waiting on you" : statusLabel(status)}
    </span>
  );
}
