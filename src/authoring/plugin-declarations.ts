// What a workflow author writes to extend the console: `wf.action({...})` and `wf.panel({...})`
// (typescript.md section 4), and the scope and context their functions receive. Part of the
// authoring API because `Workflow` records these declarations and the package entry exports
// them; the plugin host (plugins/) compiles and serves them and re-exports these types.
//
// The context answers runs and work-log entries as the HTTP API shows them, so their types come
// from the service's schemas: a type-only import, erased when compiled, and the one import of
// authoring outside itself and lib/ (test/server/module-layers.test.ts lists it as the known exception).
import type { LogEntry, RunDetail } from "../service/schemas/index.ts";

export const SLOTS = ["run", "task", "node", "workflow", "global"] as const;
export type PluginSlot = (typeof SLOTS)[number];

export const PLACEMENTS = ["pane", "card"] as const;
export type Placement = (typeof PLACEMENTS)[number];

/** Kinds whose panel is fed by a `data` function (its result must fit the kind's shape). */
export const DATA_KINDS = ["markdown", "kv", "table", "log", "chart", "dashboard"] as const;
export type DataKind = (typeof DATA_KINDS)[number];
export const PANEL_KINDS = [...DATA_KINDS, "form", "custom"] as const;
export type PanelKind = (typeof PANEL_KINDS)[number];

/** Where an action or panel was invoked, resolved and checked before plugin code runs. */
export interface PluginScope {
  /** The scope the declaration asked for. */
  kind: PluginSlot;
  workflow: string;
  run_id: string | null;
  task_id: number | null;
  node: string | null;
}

/** The third argument of an action handler and the second of a panel's `data`. */
export interface PluginContext {
  readonly workflow: string;
  readonly scope: PluginScope;
  /** Emits (and stores) `plugin.<workflow>.<name>`, tied to the scope's run and task. */
  publish(name: string, data?: Record<string, unknown>): Promise<void>;
  /** The run as GET /api/runs/{run_id} shows it; the scope's run when no id is given. */
  run(runId?: string): Promise<RunDetail>;
  /** The run's work log, oldest first; the scope's run when no id is given. */
  runLog(runId?: string): Promise<LogEntry[]>;
  /** Appends a work-log entry (author user) to the scope's run; answers the log id. */
  log(text: string): Promise<number>;
}

export type ActionHandler = (input: any, scope: PluginScope, ctx: PluginContext) => unknown;
export type PanelDataFn = (scope: PluginScope, ctx: PluginContext) => unknown;

/** `wf.action({...})` as typescript.md section 4 writes it. */
export interface ActionDeclaration {
  name: string;
  title: string;
  scope: PluginSlot;
  confirm?: boolean;
  /** A zod schema or a JSON Schema object; without one the action ignores its input. */
  input?: unknown;
  handler: ActionHandler;
}

/** `wf.panel({...})` as typescript.md section 4 writes it. */
export interface PanelDeclaration {
  name: string;
  slot: PluginSlot;
  placement: Placement;
  kind: PanelKind;
  scope: PluginSlot;
  data?: PanelDataFn;
  action?: string;
  node?: string;
  element?: string;
  asset?: string;
  refresh_on?: string[];
}
