// A schedule's due moments, read by croner (the maintained cron parser): five fields, or six
// with seconds first, in an IANA time zone.
import { Cron } from "croner";
import { EngineError } from "./errors.ts";

function cronOf(cron: string, timezone: string): Cron {
  return new Cron(cron, { timezone, paused: true });
}

/** Refuses (`validation`, with the parser's message) a cron expression or time zone it cannot read. */
export function checkCron(cron: string, timezone: string): void {
  try {
    cronOf(cron, timezone).nextRun(new Date(0));
  } catch (err) {
    throw new EngineError(
      "validation",
      `cron ${JSON.stringify(cron)} in ${timezone}: ${(err as Error).message}`,
      {
        cron,
        timezone,
      },
    );
  }
}

/** The first due moment strictly after `after` (epoch ms), or null when there is none. */
export function nextDue(cron: string, timezone: string, after: number): number | null {
  return cronOf(cron, timezone).nextRun(new Date(after))?.getTime() ?? null;
}

/** The latest due moment at or before `at`, or null when there is none. */
export function latestDue(cron: string, timezone: string, at: number): number | null {
  return (
    cronOf(cron, timezone)
      .previousRuns(1, new Date(at + 1))[0]
      ?.getTime() ?? null
  );
}
