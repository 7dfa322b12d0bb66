// Workflow names registration refuses (stage "register"). A workflow's name becomes a path
// segment (/api/workflows/{name}, /api/plugins/{wf}, /plugins/{wf}/assets) and a plugin event
// prefix, so names that would read as one of our own words there are kept for the core.

/**
 * `_`-prefixed names are the core's namespace (`_builtin` is the manifest entry of the views
 * the core ships). The verbs are the sub-resource words that follow a workflow or plugin
 * segment in our URLs, plus `new`, the conventional "create" page of a client.
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
  if (name.startsWith("_")) {
    return `workflow name "${name}" is reserved: names starting with "_" belong to the core`;
  }
  if (RESERVED_VERBS.includes(name.toLowerCase())) {
    return (
      `workflow name "${name}" is a reserved verb (reserved: ${RESERVED_VERBS.join(", ")}); ` +
      "rename the workflow"
    );
  }
  return null;
}
