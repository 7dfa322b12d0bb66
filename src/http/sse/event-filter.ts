// Which events a stream wants: one run, and names matching comma-separated globs. A glob has
// the name's dotted segments; a `*` inside a segment stands for any run of characters without a
// dot, so `run.*` selects `run.created` (not `plugin.a.b`) and `task.dead*` selects
// `task.dead_lettered`. Matching uses no regular expression: each segment's literal pieces are
// found left to right with `indexOf`, which is exact for globs whose only wildcard is `*` and
// costs at most the name's length per piece, whatever the glob holds; the `names` query is
// bounded in size by its schema.
import type { EventRecord } from "../../engine/index.ts";

export type EventPredicate = (event: EventRecord) => boolean;

/** One glob segment: its literal pieces around each `*` (one piece when it has no `*`). */
type Segment = readonly string[];
type Glob = readonly Segment[];

function compileGlob(glob: string): Glob {
  return glob.split(".").map((segment) => segment.split("*"));
}

/** True when name[from, to) matches the segment. */
function segmentMatches(pieces: Segment, name: string, from: number, to: number): boolean {
  const first = pieces[0] ?? "";
  if (pieces.length === 1) return to - from === first.length && name.startsWith(first, from);
  const last = pieces[pieces.length - 1] ?? "";
  if (to - from < first.length + last.length) return false;
  if (!name.startsWith(first, from) || !name.startsWith(last, to - last.length)) return false;
  // The middle pieces, each at its leftmost place after the one before: taking the leftmost
  // place never loses a match when `*` is the only wildcard.
  let at = from + first.length;
  const end = to - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? "";
    const found = name.indexOf(piece, at);
    if (found === -1 || found + piece.length > end) return false;
    at = found + piece.length;
  }
  return true;
}

function globMatches(glob: Glob, name: string): boolean {
  let at = 0;
  for (let i = 0; i < glob.length; i++) {
    const last = i === glob.length - 1;
    const dot = name.indexOf(".", at);
    // The last segment runs to the end of the name; every other one ends at a dot.
    if (last ? dot !== -1 : dot === -1) return false;
    const end = last ? name.length : dot;
    if (!segmentMatches(glob[i] ?? [""], name, at, end)) return false;
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
