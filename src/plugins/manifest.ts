// The plugin manifest of a registered workflow: its compiled declarations, and how they are
// listed in WorkflowOut.plugin and in GET /api/plugins.
import type { RegisteredWorkflow } from "../engine/index.ts";
import type { ActionOut, PanelOut, PluginManifestEntry } from "../service/schemas/index.ts";
import { assetUrls } from "./assets.ts";
import { compilePlugins } from "./compile.ts";
import type { CompiledAction, CompiledPanel, CompiledPlugin } from "./types.ts";

// Registration validated the declarations already; compiling again per read would rebuild the
// validators, so each registration (a new RegisteredWorkflow object) is compiled once.
const compiled = new WeakMap<RegisteredWorkflow, CompiledPlugin>();

/** The workflow's plugin; declarations that do not validate are left out rather than thrown. */
export function pluginOf(wf: RegisteredWorkflow): CompiledPlugin {
  let plugin = compiled.get(wf);
  if (!plugin) {
    plugin = compilePlugins(wf.workflow, { graph: wf.graph, file: wf.file }).plugin;
    compiled.set(wf, plugin);
  }
  return plugin;
}

/** Used when an action declares no input model: a form with no fields. */
const NO_INPUT = { type: "object", properties: {} };

export function actionOut(a: CompiledAction): ActionOut {
  return {
    name: a.name,
    title: a.title,
    scope: a.scope,
    confirm: a.confirm,
    schema: a.model?.schema ?? NO_INPUT,
  };
}

export function panelOut(p: CompiledPanel): PanelOut {
  return {
    name: p.name,
    slot: p.slot,
    placement: p.placement,
    kind: p.kind,
    scope: p.scope,
    source: p.source,
    node: p.node,
    element: p.element,
    refresh_on: p.refresh_on,
  };
}

/** WorkflowOut.plugin: actions and panels as the manifest lists them. */
export function workflowPlugin(plugin: CompiledPlugin): {
  actions: ActionOut[];
  panels: PanelOut[];
} {
  return {
    actions: [...plugin.actions.values()].map(actionOut),
    panels: [...plugin.panels.values()].map(panelOut),
  };
}

export async function manifestEntry(plugin: CompiledPlugin): Promise<PluginManifestEntry> {
  return { workflow: plugin.workflow, ...workflowPlugin(plugin), assets: await assetUrls(plugin) };
}
