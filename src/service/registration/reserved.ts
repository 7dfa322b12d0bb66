// Workflow names registration refuses (stage "register"). A workflow's name becomes a path
// segment (/api/workflows/{name}, /api/plugins/{wf}, /plugins/{wf}/assets) and a plugin event
// prefix, so names that would read as one of our own words there are kept for the core.

import { BUILTIN } from "../../plugins/builtin.ts";

/**
 * The sub-resource words that follow a workflow or plugin segment in our URLs, plus `new`, the
 * conventional "create" page of a client. Paths are case-sensitive, so only these exact
 * spellings collide. Any other valid identifier is the author's (the spec reserves only verbs),
 * `_`-prefixed ones included, except `_builtin`, the manifest entry of the core's own views.
 */
export const RESERVED_VERBS: readonly string[] = [
  "runs",
  "source",
  "actions",
  "panels",
  "assets",
  "new",
];

/** Why `name` cannot be registered, or null when it can. */
export function reservedNameProblem(name: string): string | null {
  if (name === BUILTIN) {
    return `workflow name "${name}" is reserved: it is the manifest entry of the core's own views`;
  }
  if (RESERVED_VERBS.includes(name)) {
    return (
      `workflow name "${name}" is a reserved verb (reserved: ${RESERVED_VERBS.join(", ")}); ` +
      "rename the workflow"
    );
  }
  return null;
}
