// The wait before a retry: `initial * factor^(n-1)` seconds for retry n, capped at `max`. With
// jitter the wait is drawn uniformly between half of that and all of it ("equal jitter"), so the
// retries of many attempts that failed together spread out, yet none comes sooner than half the
// configured wait.
import type { FinalBackoff } from "../authoring/index.ts";

/** Milliseconds before the retry of `failedAttempt` (1 for the first attempt's failure). */
export function backoffDelayMs(
  backoff: FinalBackoff,
  failedAttempt: number,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, failedAttempt - 1);
  const seconds = Math.min(backoff.max, backoff.initial * backoff.factor ** exponent);
  const share = backoff.jitter ? 0.5 + random() / 2 : 1;
  return Math.round(seconds * share * 1000);
}
