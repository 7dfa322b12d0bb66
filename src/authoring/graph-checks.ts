import type { FinalNode, GraphEdgeSpec } from "./types.ts";

/** Whole-graph problems, each a sentence naming the nodes involved. */
export function graphProblems(nodes: readonly FinalNode[]): string[] {
  const problems: string[] = [];
  const counts = new Map<string, number>();
  for (const n of nodes) counts.set(n.name, (counts.get(n.name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (count > 1)
      problems.push(`node name "${name}" is used by ${count} nodes; names must be unique`);
  }
  const starts = nodes.filter((n) => n.start).map((n) => n.name);
  if (starts.length === 0) {
    problems.push("there is no start node; mark exactly one node with { start: true }");
  } else if (starts.length > 1) {
    problems.push(
      `${starts.length} nodes are marked start (${starts.join(", ")}); exactly one may be`,
    );
  }
  for (const n of nodes) problems.push(...nodeProblems(n, counts));
  if (starts.length === 1) problems.push(...reachProblems(nodes, starts[0]!));
  return problems;
}

function nodeProblems(n: FinalNode, names: Map<string, number>): string[] {
  const problems: string[] = [];
  const who = `node "${n.name}"`;
  for (const edge of n.edges) {
    if (!names.has(edge)) {
      problems.push(
        `${who}: edge "${edge}" names no node of this workflow (nodes: ${[...names.keys()].join(", ")})`,
      );
    }
  }
  if (n.join && !n.hasPayload) {
    problems.push(
      `${who}: a join must declare a payload slot for its arrivals, e.g. ` +
        `async function ${n.name}({}, arrivals, ctx) { ... }`,
    );
  }
  if (n.join && n.start) {
    problems.push(`${who}: the start node cannot be a join (nothing fans out before it)`);
  }
  return problems;
}

function reachProblems(nodes: readonly FinalNode[], start: string): string[] {
  const depth = generations(nodes, start);
  return nodes
    .filter((n) => !depth.has(n.name))
    .map(
      (n) =>
        `node "${n.name}" is not reachable from the start node "${start}"; ` +
        "add it to some node's edges or remove it",
    );
}

/** Breadth-first depth of every node reachable from `start`. */
export function generations(nodes: readonly FinalNode[], start: string): Map<string, number> {
  const byName = new Map(nodes.map((n) => [n.name, n]));
  const depth = new Map<string, number>([[start, 0]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const here = queue[i]!;
    for (const edge of byName.get(here)?.edges ?? []) {
      if (!byName.has(edge) || depth.has(edge)) continue;
      depth.set(edge, depth.get(here)! + 1);
      queue.push(edge);
    }
  }
  return depth;
}

/**
 * Every declared edge with its kind: `join` into a join node; otherwise `back` when the target
 * sits at or above the source (a loop), else `forward`.
 */
export function edgeKinds(nodes: ReadonlyMap<string, FinalNode>): GraphEdgeSpec[] {
  const specs: GraphEdgeSpec[] = [];
  for (const from of nodes.values()) {
    for (const to of from.edges) {
      const target = nodes.get(to)!;
      const kind = target.join ? "join" : target.generation <= from.generation ? "back" : "forward";
      specs.push({ from: from.name, to, kind });
    }
  }
  return specs;
}
