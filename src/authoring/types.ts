// The shapes workflow authors write against and the engine consumes. Kept free of runtime code
// so that both sides can import them without pulling anything in.

/** Options of `wf.node(options, fn)`. Unset values fall back to the server's defaults. */
export interface NodeOptions {
  start?: boolean;
  join?: boolean;
  /** Extra attempts after the first failure (non-negative integer). */
  retries?: number;
  /** Seconds per attempt; the clock stops while the task waits on a person. */
  timeout?: number;
  /**
   * Delay between a failed attempt and its retry: `initial * factor^(attempt-1)` seconds, at
   * most `max`, with equal jitter unless `jitter: false`. Unset: the retry is claimable at once.
   */
  backoff?: Backoff;
  /** Higher is claimed first within a run (integer). */
  priority?: number;
  /** Display name; defaults to the node name. */
  label?: string;
  /** Defaults to the function's leading doc comment, else null. */
  description?: string;
  /** Overrides the function's own name. */
  name?: string;
  /**
   * The start node only: the schema of the run's input (a zod schema, or a JSON Schema object).
   * A submit whose `input` does not match it is refused; the start node's payload holds the
   * parsed value as `input`.
   */
  input?: { _zod: unknown } | Record<string, unknown>;
}

/** A node's retry backoff (seconds). */
export interface Backoff {
  /** Delay before the first retry (> 0). */
  initial: number;
  /** Growth per further retry (>= 1); 2 by default. */
  factor?: number;
  /** Cap of the delay (>= initial); 3600 by default. */
  max?: number;
  /** Equal jitter (a delay between half and all of the computed one); true by default. */
  jitter?: boolean;
}

/** One entry of a join's payload: what one branch of the fan-out delivered. */
export interface Arrival<V = unknown, K = unknown> {
  index: number;
  /** The payload the branch was given when the fan-out opened it. */
  key: K;
  value: V;
  task_id: number;
}

/** What a called edge reference (or a bare one) evaluates to; the engine reads it on return. */
export interface Transition {
  readonly edge: string;
  readonly present: boolean;
  readonly payload: unknown;
}

/** An edge inside a body: return it bare (no payload) or call it to carry one. */
export type EdgeRef<P = unknown> = ((payload: P) => Transition) & { readonly edge: string };

export interface TaskContext {
  task: {
    id: number;
    run_id: string;
    workflow: string;
    node: string;
    attempt: number;
    title: string;
    description: string;
  };
  signal: AbortSignal;
  log(
    text: string,
    opts?: { kind?: "deliverable" | "note" | "stats" | "failure" },
  ): Promise<number>;
  ask(opts: {
    prompt: string;
    options?: Array<string | { option_id: string; name?: string; kind?: string }>;
    schema?: Record<string, unknown>;
    kind?: "permission" | "elicitation" | "question";
  }): Promise<unknown>;
  agent(opts: Record<string, unknown>): Promise<unknown>;
  /**
   * Waits `seconds` without holding a pool slot (the task shows `waiting` with `sleep_until`);
   * the node timeout does not run meanwhile. Durable: a body run again after a restart finds
   * its earlier sleeps, which resolve at once when due or wait only what is left.
   */
  sleep(seconds: number): Promise<void>;
  /** Like `sleep`, until a moment (a Date, an ISO-8601 string or epoch ms); a past one resolves at once. */
  sleepUntil(date: Date | string | number): Promise<void>;
  publish(name: string, data: Record<string, unknown>): void;
}

/**
 * The edges parameter of a node body: each name destructured from it is an `EdgeRef`. Its values
 * are typed `any` rather than `EdgeRef`: under `noUncheckedIndexedAccess` (which `tsc --init`
 * turns on) every name taken from a record would be `EdgeRef | undefined`, so calling one,
 * `return shout(x)`, would not type-check, and TypeScript has no type for "every name is present".
 */
export type Edges = Readonly<Record<string, any>>;

/**
 * A node body as TypeScript sees it. An inline `async function intake({ classify }, ticket:
 * Ticket, ctx)` needs no annotation for its edges or its `TaskContext`; the payload is `any` so
 * that authors can annotate it freely.
 */
export type NodeBody = (edges: Edges, payload: any, ctx: TaskContext) => unknown;

/** A node after finalization: everything the engine needs to run and describe it. */
export interface FinalNode {
  name: string;
  /** Declaration order, read from the property keys of the first parameter's pattern. */
  edges: string[];
  hasPayload: boolean;
  hasCtx: boolean;
  start: boolean;
  join: boolean;
  /** null = not declared and no default given at finalization (the server default applies). */
  retries: number | null;
  /** null = not declared and no default given at finalization (the server default applies). */
  backoff: Backoff | null;
  timeout: number | null;
  priority: number | null;
  label: string;
  description: string | null;
  /** The start node's input schema as declared (zod or JSON Schema); null when none. */
  input: unknown;
  /** Breadth-first depth from the start node. */
  generation: number;
  fn: (...args: any[]) => unknown;
}

export interface GraphEdgeSpec {
  from: string;
  to: string;
  kind: "forward" | "back" | "join";
}

export interface FinalGraph {
  name: string;
  start: string;
  /** In declaration order. */
  nodes: Map<string, FinalNode>;
  edges: GraphEdgeSpec[];
}

/** Values a server may fill in for node options a workflow leaves unset. */
export interface NodeDefaults {
  retries?: number;
  priority?: number;
  backoff?: Backoff;
}

/** What the loader learned from the workflow's file: node name -> leading doc comment. */
export interface FinalizeHints {
  descriptions?: Readonly<Record<string, string>>;
}
