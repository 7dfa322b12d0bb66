import type { Json } from "../lib/json.ts";
import { GraphError } from "./errors.ts";
import { toJson } from "./json.ts";
import { isEdgeRef, isTransition } from "./refs.ts";
import type { FinalGraph, FinalNode } from "./types.ts";

export interface RoutedTransition {
  edge: string;
  present: boolean;
  payload: Json;
}

/**
 * What a body's return value means (http-api.md, Rule 2).
 * - `end`: the branch ends with `value` as its terminal value (a candidate run output).
 * - `transitions`: move along each listed edge; `fanout` opens one branch per transition.
 *   An EMPTY `transitions` list (the body returned `[]`) ends the branch with no value at all:
 *   it is not a terminal value and never becomes (part of) the run output.
 */
export type Routing =
  | { kind: "end"; value: Json }
  | { kind: "transitions"; fanout: boolean; transitions: RoutedTransition[] };

/** Interprets `returned` for node `nodeName`; throws GraphError when it cannot be routed. */
export function route(graph: FinalGraph, nodeName: string, returned: unknown): Routing {
  const node = graph.nodes.get(nodeName);
  if (!node) {
    throw new GraphError(`workflow "${graph.name}" has no node "${nodeName}" to route from`);
  }
  if (isEdgeRef(returned) || isTransition(returned)) {
    return { kind: "transitions", fanout: false, transitions: [toRouted(graph, node, returned)] };
  }
  if (Array.isArray(returned)) {
    if (returned.length === 0) return { kind: "transitions", fanout: false, transitions: [] };
    const refs = returned.filter((item) => isEdgeRef(item) || isTransition(item)).length;
    if (refs === returned.length) {
      const transitions = returned.map((item) => toRouted(graph, node, item));
      return { kind: "transitions", fanout: true, transitions };
    }
    if (refs > 0) {
      throw new GraphError(
        `${where(graph, node)} returned a list mixing ${refs} edge references with ` +
          `${returned.length - refs} plain values; return only references (a fan-out) ` +
          "or only values",
      );
    }
  }
  return routePlain(graph, node, returned);
}

function routePlain(graph: FinalGraph, node: FinalNode, returned: unknown): Routing {
  if (node.edges.length === 0) return { kind: "end", value: toJson(returned) };
  if (node.edges.length === 1) {
    const edge = node.edges[0]!;
    return {
      kind: "transitions",
      fanout: false,
      transitions: [{ edge, present: true, payload: toJson(returned) }],
    };
  }
  throw new GraphError(
    `${where(graph, node)} returned a plain value but has ${node.edges.length} edges ` +
      `(${node.edges.join(", ")}); return one of them, e.g. \`return ${node.edges[0]}(value)\``,
  );
}

function toRouted(graph: FinalGraph, node: FinalNode, item: unknown): RoutedTransition {
  const { edge, present, payload } = isEdgeRef(item)
    ? { edge: item.edge, present: false, payload: null }
    : (item as { edge: string; present: boolean; payload: unknown });
  if (!node.edges.includes(edge)) {
    const declared = node.edges.length > 0 ? node.edges.join(", ") : "none";
    throw new GraphError(
      `${where(graph, node)} returned a reference to "${edge}", which is not one of its edges ` +
        `(declared: ${declared}); add it to the first parameter: ` +
        `{ ${[...node.edges, edge].join(", ")} }`,
    );
  }
  return { edge, present, payload: present ? toJson(payload) : null };
}

function where(graph: FinalGraph, node: FinalNode): string {
  return `node "${node.name}" of workflow "${graph.name}"`;
}
