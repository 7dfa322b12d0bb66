import type { Workflow } from "./workflow.ts";

/**
 * Registration-time check of plugin declarations (stage "plugins"). For now only the shape every
 * later check relies on: each declaration is an object with a unique, non-empty string `name`.
 * Throws an Error listing every problem.
 */
export function validatePlugins(wf: Workflow): void {
  const problems = [
    ...declarationProblems("action", wf.actions),
    ...declarationProblems("panel", wf.panels),
  ];
  if (problems.length > 0) {
    throw new Error(`workflow "${wf.name}": ${problems.join("; ")}`);
  }
}

function declarationProblems(kind: string, decls: ReadonlyArray<unknown>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  decls.forEach((decl, i) => {
    const who = `${kind} #${i + 1}`;
    if (decl === null || typeof decl !== "object" || Array.isArray(decl)) {
      problems.push(`${who} must be an object such as { name: "approve", ... }`);
      return;
    }
    const name = (decl as { name?: unknown }).name;
    if (typeof name !== "string" || name === "") {
      problems.push(`${who} needs a non-empty string "name"`);
    } else if (seen.has(name)) {
      problems.push(`${kind} name "${name}" is declared twice`);
    } else {
      seen.add(name);
    }
  });
  return problems;
}
