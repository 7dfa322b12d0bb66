import { hasBrand, setBrand } from "./brand.ts";
import { finalizeGraph, type NodeEntry } from "./finalize.ts";
import type { ActionDeclaration, PanelDeclaration } from "./plugin-declarations.ts";
import { makeEdgeRef } from "./refs.ts";
import type {
  EdgeRef,
  FinalGraph,
  FinalizeHints,
  NodeBody,
  NodeDefaults,
  NodeOptions,
} from "./types.ts";

/**
 * A workflow under construction. Everything here only records what it is given: a module that
 * defines a broken graph still imports, and every problem surfaces from `finalize()` as one
 * GraphError, so registration can answer with `stage: "finalize"`.
 */
export class Workflow {
  readonly name: string;
  readonly #entries: NodeEntry[] = [];
  readonly #actions: Record<string, unknown>[] = [];
  readonly #panels: Record<string, unknown>[] = [];
  readonly #refs = new Map<string, EdgeRef>();

  constructor(name: string) {
    this.name = name;
  }

  node(fn: NodeBody): this;
  node(options: NodeOptions, fn: NodeBody): this;
  node(first: unknown, second?: unknown, ...extra: unknown[]): this {
    if (typeof first === "function") {
      this.#entries.push({ options: {}, fn: first, extra: second === undefined ? 0 : 1 });
    } else {
      this.#entries.push({ options: first, fn: second, extra: extra.length });
    }
    return this;
  }

  /** A reference to any node by name; routing checks it is an edge of the node returning it. */
  ref(name: string): EdgeRef {
    let ref = this.#refs.get(name);
    if (!ref) {
      ref = makeEdgeRef(name);
      this.#refs.set(name, ref);
    }
    return ref;
  }

  /** Records a plugin action declaration; validated at registration (stage "plugins"). */
  action(decl: ActionDeclaration): this {
    this.#actions.push(decl as unknown as Record<string, unknown>);
    return this;
  }

  /** Records a plugin panel declaration; validated at registration (stage "plugins"). */
  panel(decl: PanelDeclaration): this {
    this.#panels.push(decl as unknown as Record<string, unknown>);
    return this;
  }

  get actions(): ReadonlyArray<Record<string, unknown>> {
    return this.#actions;
  }

  get panels(): ReadonlyArray<Record<string, unknown>> {
    return this.#panels;
  }

  /**
   * Checks the whole graph and returns it; throws one GraphError listing every problem.
   * `defaults` fill `retries`/`priority` a node leaves unset (without them those stay null);
   * `hints` carry what the loader found in the source file (doc comments).
   */
  finalize(defaults?: NodeDefaults, hints?: FinalizeHints): FinalGraph {
    return finalizeGraph(this.name, this.#entries, defaults ?? {}, hints ?? {});
  }
}

setBrand(Workflow.prototype, "workflow");

/** Starts a workflow; `name` must be an identifier (checked at finalization). */
export function workflow(name: string): Workflow {
  return new Workflow(name);
}

export function isWorkflow(value: unknown): value is Workflow {
  return typeof value === "object" && hasBrand(value, "workflow");
}
