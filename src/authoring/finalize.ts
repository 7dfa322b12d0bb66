import { GraphError } from "./errors.ts";
import { edgeKinds, generations, graphProblems } from "./graph-checks.ts";
import { optionProblems } from "./node-options.ts";
import { readSignature, type Signature } from "./signature.ts";
import type { FinalGraph, FinalizeHints, FinalNode, NodeDefaults, NodeOptions } from "./types.ts";

/** One `wf.node(...)` call as recorded; `extra` counts surplus arguments. */
export interface NodeEntry {
  options: unknown;
  fn: unknown;
  extra: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function finalizeGraph(
  name: string,
  entries: readonly NodeEntry[],
  defaults: NodeDefaults,
  hints: FinalizeHints,
): FinalGraph {
  const problems: string[] = [];
  if (typeof name !== "string" || !IDENTIFIER.test(name)) {
    problems.push(
      `the workflow name ${JSON.stringify(name)} is not a valid identifier ([A-Za-z_][A-Za-z0-9_]*)`,
    );
  }
  const drafts: FinalNode[] = [];
  const nodeProblems: string[] = [];
  entries.forEach((entry, i) => {
    const node = draftNode(entry, i, defaults, hints, nodeProblems);
    if (node) drafts.push(node);
  });
  // Graph checks on a partial node list would report phantom missing edges; skip them then.
  problems.push(...nodeProblems);
  if (nodeProblems.length === 0) problems.push(...graphProblems(drafts));
  if (problems.length > 0) throw new GraphError(describeProblems(name, problems));

  const start = drafts.find((n) => n.start)!;
  const depth = generations(drafts, start.name);
  const nodes = new Map<string, FinalNode>();
  for (const node of drafts) nodes.set(node.name, { ...node, generation: depth.get(node.name)! });
  return { name, start: start.name, nodes, edges: edgeKinds(nodes) };
}

function describeProblems(name: string, problems: string[]): string {
  const head = `workflow ${JSON.stringify(name)}`;
  if (problems.length === 1) return `${head}: ${problems[0]}`;
  return `${head} has ${problems.length} problems:\n${problems.map((p) => `- ${p}`).join("\n")}`;
}

function draftNode(
  entry: NodeEntry,
  index: number,
  defaults: NodeDefaults,
  hints: FinalizeHints,
  problems: string[],
): FinalNode | null {
  const options = (entry.options ?? {}) as NodeOptions;
  const named = typeof options === "object" && typeof options.name === "string" && options.name;
  const name = named || (typeof entry.fn === "function" ? entry.fn.name : "");
  const read = entryProblems(entry, name);
  const who = name ? `node ${JSON.stringify(name)}` : `node #${index + 1}`;
  problems.push(...read.problems.map((p) => `${who}: ${p}`));
  if (!read.signature || read.problems.length > 0) return null;

  const sig = read.signature;
  const hinted = hints.descriptions && Object.hasOwn(hints.descriptions, name);
  return {
    name,
    edges: sig.edges,
    hasPayload: sig.hasPayload,
    hasCtx: sig.hasCtx,
    start: options.start === true,
    join: options.join === true,
    retries: options.retries ?? defaults.retries ?? null,
    backoff: options.backoff ?? defaults.backoff ?? null,
    timeout: options.timeout ?? null,
    priority: options.priority ?? defaults.priority ?? null,
    label: options.label ?? name,
    description:
      options.description ?? (hinted ? hints.descriptions![name]! : null) ?? sig.bodyDoc ?? null,
    input: options.input ?? null,
    generation: 0,
    fn: entry.fn as FinalNode["fn"],
  };
}

/** Everything wrong with one `wf.node(...)` call on its own, and its signature if readable. */
function entryProblems(
  entry: NodeEntry,
  name: string,
): { problems: string[]; signature: Signature | null } {
  const fn = entry.fn;
  const problems = optionProblems(entry.options ?? {});
  if (entry.extra > 0) {
    problems.push("wf.node takes (fn) or (options, fn); remove the extra arguments");
  }
  if (typeof fn !== "function") {
    problems.push(`expected a function, got ${fn === null ? "null" : typeof fn}`);
    return { problems, signature: null };
  }
  if (!name) {
    problems.push(
      "the function has no name; name it (`async function intake(...) {}`) or pass { name: ... }",
    );
  }
  const read = readSignature(fn);
  if (!read.ok) problems.push(`cannot read its signature: ${read.problem}`);
  return { problems, signature: read.ok ? read.signature : null };
}
