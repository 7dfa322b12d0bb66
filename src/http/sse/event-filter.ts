// Which events a stream wants: one run, and names matching comma-separated globs in which `*`
// stands for exactly one dotted segment (`run.*` selects `run.created`, not `plugin.a.b`).
import type { EventRecord } from "../../engine/domain.ts";

export type EventPredicate = (event: EventRecord) => boolean;

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split(".")
    .map((segment) =>
      segment
        .split("*")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^.]*"),
    )
    .join("\\.");
  return new RegExp(`^${body}$`);
}

/** Compiles event-name globs; an empty list matches every name. */
export function nameMatcher(globs: readonly string[]): (name: string) => boolean {
  const patterns = globs
    .map((g) => g.trim())
    .filter((g) => g !== "")
    .map(globToRegExp);
  if (patterns.length === 0) return () => true;
  return (name) => patterns.some((p) => p.test(name));
}

/** True when `name` matches the single glob `pattern` (panels' `refresh_on` uses the same rule). */
export function matchesEventGlob(pattern: string, name: string): boolean {
  return globToRegExp(pattern).test(name);
}

export function eventPredicate(filter: { run?: string; names?: string }): EventPredicate {
  const matchName = nameMatcher(filter.names ? filter.names.split(",") : []);
  const run = filter.run;
  return (event) => (run === undefined || event.run_id === run) && matchName(event.name);
}
