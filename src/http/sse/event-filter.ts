// Which events a stream wants: one run, and names matching comma-separated globs in which `*`
// stands for exactly one dotted segment (`run.*` selects `run.created`, not `plugin.a.b`); any
// other segment matches itself only. Matching walks the name once per glob, segment by
// segment, with no regular expression: its cost is linear in the name and the globs, whatever
// they hold, and the `names` query is bounded in size by its schema.
import type { EventRecord } from "../../engine/domain.ts";

export type EventPredicate = (event: EventRecord) => boolean;

/** A glob's dotted segments; null where the segment is `*`. */
type Glob = readonly (string | null)[];

function compileGlob(glob: string): Glob {
  return glob.split(".").map((segment) => (segment === "*" ? null : segment));
}

function globMatches(glob: Glob, name: string): boolean {
  let at = 0;
  for (let i = 0; i < glob.length; i++) {
    const last = i === glob.length - 1;
    const dot = name.indexOf(".", at);
    // The last segment runs to the end of the name; every other one ends at a dot.
    if (last ? dot !== -1 : dot === -1) return false;
    const end = last ? name.length : dot;
    const segment = glob[i];
    if (segment !== null && (end - at !== segment.length || !name.startsWith(segment, at))) {
      return false;
    }
    at = end + 1;
  }
  return true;
}

// A stream sees few distinct names (the event vocabulary and its workflows' plugin events), so
// each answer is remembered; the bound keeps a flood of distinct plugin names from growing it.
const REMEMBERED_NAMES = 256;

/** Compiles event-name globs; an empty list matches every name. */
export function nameMatcher(globs: readonly string[]): (name: string) => boolean {
  const compiled = globs
    .map((g) => g.trim())
    .filter((g) => g !== "")
    .map(compileGlob);
  if (compiled.length === 0) return () => true;
  const seen = new Map<string, boolean>();
  return (name) => {
    let matched = seen.get(name);
    if (matched === undefined) {
      matched = compiled.some((glob) => globMatches(glob, name));
      if (seen.size < REMEMBERED_NAMES) seen.set(name, matched);
    }
    return matched;
  };
}

/** True when `name` matches the single glob `pattern` (panels' `refresh_on` uses the same rule). */
export function matchesEventGlob(pattern: string, name: string): boolean {
  return globMatches(compileGlob(pattern), name);
}

export function eventPredicate(filter: { run?: string; names?: string }): EventPredicate {
  const matchName = nameMatcher(filter.names ? filter.names.split(",") : []);
  const run = filter.run;
  return (event) => (run === undefined || event.run_id === run) && matchName(event.name);
}
