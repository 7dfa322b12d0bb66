import { hasBrand, setBrand } from "./brand.ts";
import type { EdgeRef, FinalNode, Transition } from "./types.ts";

export function makeTransition(edge: string, present: boolean, payload: unknown): Transition {
  const transition = { edge, present, payload };
  setBrand(transition, "transition");
  return Object.freeze(transition);
}

/** A callable reference to edge `edge`: `ref` alone means no payload, `ref(x)` carries `x`. */
export function makeEdgeRef<P = unknown>(edge: string): EdgeRef<P> {
  const ref = (payload: P): Transition => makeTransition(edge, true, payload);
  Object.defineProperty(ref, "edge", { value: edge, enumerable: true });
  // The function's name shows up in stack traces and inspection; make it the edge's.
  Object.defineProperty(ref, "name", { value: edge });
  setBrand(ref, "edgeRef");
  return Object.freeze(ref) as EdgeRef<P>;
}

export function isEdgeRef(value: unknown): value is EdgeRef {
  return typeof value === "function" && hasBrand(value, "edgeRef");
}

export function isTransition(value: unknown): value is Transition {
  return typeof value === "object" && hasBrand(value, "transition");
}

const refsByNode = new WeakMap<FinalNode, Record<string, EdgeRef>>();

/** The first argument of a body: one EdgeRef per declared edge. Built once per node. */
export function edgeRefs(node: FinalNode): Record<string, EdgeRef> {
  let refs = refsByNode.get(node);
  if (!refs) {
    refs = Object.create(null) as Record<string, EdgeRef>;
    for (const edge of node.edges) refs[edge] = makeEdgeRef(edge);
    Object.freeze(refs);
    refsByNode.set(node, refs);
  }
  return refs;
}
