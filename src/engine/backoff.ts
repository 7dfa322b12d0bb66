// The delay before a retry: `initial * factor^(attempt-1)` seconds for the retry of attempt
// `attempt`, capped at `max`, then with equal jitter (half of it fixed, the other half random),
// which spreads retries of many failures at once but never retries sooner than half the delay.
import type { Backoff } from "../authoring/index.ts";

export const BACKOFF_FACTOR = 2;
export const BACKOFF_MAX_S = 3600;

/** Milliseconds the retry of failed attempt `attempt` waits; `random` in [0, 1). */
export function backoffDelayMs(b: Backoff, attempt: number, random: () => number): number {
  const factor = b.factor ?? BACKOFF_FACTOR;
  const max = b.max ?? BACKOFF_MAX_S;
  const full = Math.min(max, b.initial * factor ** Math.max(0, attempt - 1)) * 1000;
  if (b.jitter === false) return Math.round(full);
  return Math.round(full / 2 + (full / 2) * random());
}
