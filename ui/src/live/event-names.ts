// The closed event vocabulary (http-api.md, Events), as the server's schema has it: EVENT_NAMES
// is generated from /openapi.json's EventName enumeration (src/client/openapi.ts). An
// EventSource delivers a named event only to listeners of that exact name, so the stream
// subscribes to each of these by name.
export { EVENT_NAMES } from "../../../src/client/openapi.ts";

/** `*` matches exactly one dotted segment, as the server's `names` filter reads it. */
export function globMatches(glob: string, name: string): boolean {
  const g = glob.split(".");
  const n = name.split(".");
  return g.length === n.length && g.every((part, i) => part === "*" || part === n[i]);
}

export const matchesAny = (globs: readonly string[], name: string) =>
  globs.some((g) => globMatches(g, name));
