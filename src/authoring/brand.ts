// Brands instead of `instanceof`: tsx gives every loaded workflow file its own copy of the
// "yardmaster" module, so a class seen by the engine and the same class seen by a workflow are
// different objects. `Symbol.for` keys live in the process-wide registry and are shared by all
// copies, so a brand set by one copy is recognised by every other.

export type BrandKind =
  | "GraphError"
  | "NonRetryable"
  | "NodeTimeout"
  | "workflow"
  | "edgeRef"
  | "transition";

export function brandKey(kind: BrandKind): symbol {
  return Symbol.for(`yardmaster.${kind}`);
}

/** Marks `target` (an instance or a prototype) as being of `kind`; non-enumerable. */
export function setBrand(target: object, kind: BrandKind): void {
  Object.defineProperty(target, brandKey(kind), { value: true });
}

export function hasBrand(value: unknown, kind: BrandKind): boolean {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return false;
  return (value as Record<symbol, unknown>)[brandKey(kind)] === true;
}
