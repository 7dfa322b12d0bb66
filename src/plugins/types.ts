// What registration compiles the raw `wf.action(...)` / `wf.panel(...)` declarations into, and
// what the plugin routes run. The declarations themselves, with the scope and context plugin
// code sees, are authoring's (authoring/plugin-declarations.ts), re-exported here so that the
// host reads every plugin type from one module (with the value lists, SLOTS and the kinds).
import type {
  ActionHandler,
  PanelDataFn,
  PanelKind,
  Placement,
  PluginSlot,
} from "../authoring/plugin-declarations.ts";
import type { ValidationIssue } from "../lib/validation-issue.ts";

export * from "../authoring/plugin-declarations.ts";

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
