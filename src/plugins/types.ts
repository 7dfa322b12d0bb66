// What plugin code sees (scope, context, handler shapes) and what registration compiles the raw
// `wf.action(...)` / `wf.panel(...)` declarations into. Types only.
import type { ValidationIssue } from "../service/errors.ts";
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

export type InputCheck = { ok: true; value: unknown } | { ok: false; issues: ValidationIssue[] };

/** An action's input model after registration: the form's JSON Schema and its validator. */
export interface InputModel {
  schema: Record<string, unknown>;
  check(input: unknown): InputCheck;
}

export interface CompiledAction {
  name: string;
  title: string;
  scope: PluginSlot;
  confirm: boolean;
  model: InputModel | null;
  handler: ActionHandler;
}

/** A JavaScript module a panel needs, declared relative to the workflow file. */
export interface AssetRef {
  /** Path below the workflow file's folder, with `/` separators (the URL spells it so). */
  path: string;
  /** Absolute path on disk. */
  file: string;
}

export interface CompiledPanel {
  name: string;
  slot: PluginSlot;
  placement: Placement;
  kind: PanelKind;
  scope: PluginSlot;
  /** Mounted data route, or for a form the action's name; null for custom. */
  source: string | null;
  node: string | null;
  element: string | null;
  refresh_on: string[];
  data: PanelDataFn | null;
  asset: AssetRef | null;
}

export interface CompiledPlugin {
  workflow: string;
  /** In declaration order. */
  actions: Map<string, CompiledAction>;
  panels: Map<string, CompiledPanel>;
  /** Distinct assets in declaration order. */
  assets: AssetRef[];
}
