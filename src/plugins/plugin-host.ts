// Runs plugin code for the HTTP layer: the manifest (builtins first, then workflows in
// registration order), action calls (input checked against the action's model, scope resolved,
// handler run) and panel data routes (result checked against the kind's shape). Whatever plugin
// code throws, or a result that misfits, becomes `plugin_error`.
import { toJson } from "../authoring/index.ts";
import type { Engine, Json } from "../engine/index.ts";
import type { OperatorService } from "../service/api.ts";
import { ServiceError, validation } from "../service/errors.ts";
import type { ActionCall, PluginManifestEntry } from "../service/schemas/index.ts";
import { type AssetBytes, readAsset } from "./assets.ts";
import { BUILTIN, builtinPlugin } from "./builtin.ts";
import { manifestEntry, pluginOf } from "./manifest.ts";
import { pluginContext } from "./plugin-context.ts";
import { resolveScope, type ScopeIds } from "./scope.ts";
import { describeMisfit } from "./shapes.ts";
import type { CompiledPlugin, DataKind, PluginSlot } from "./types.ts";

/** What the plugin routes need; an application built without it serves builtins only. */
export interface PluginService {
  manifest(): Promise<PluginManifestEntry[]>;
  callAction(workflow: string, action: string, body: ActionCall): Promise<Json>;
  panelData(workflow: string, panel: string, ids: ScopeIds): Promise<Json>;
  /** A declared asset's bytes, or null when the workflow declares no such asset. */
  asset(workflow: string, path: string): Promise<AssetBytes | null>;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

function pluginError(what: string, err: unknown, extras: Record<string, unknown>): ServiceError {
  const detail = messageOf(err);
  return new ServiceError("plugin_error", `${what} failed: ${detail}`, { ...extras, detail });
}

export class PluginHost implements PluginService {
  readonly #builtin: CompiledPlugin;

  constructor(
    private readonly engine: Engine,
    private readonly service: OperatorService,
  ) {
    this.#builtin = builtinPlugin(service);
  }

  async manifest(): Promise<PluginManifestEntry[]> {
    const registered = this.engine.registry.workflows;
    const order = (await this.engine.store.listRegistrations()).map((r) => r.workflow);
    // Anything registered without a store row (not through the registrar) goes last, by name.
    const names = [
      ...order.filter((n) => registered.has(n)),
      ...[...registered.keys()].filter((n) => !order.includes(n)).sort(),
    ];
    const entries = [await manifestEntry(this.#builtin)];
    for (const name of names) entries.push(await manifestEntry(pluginOf(registered.get(name)!)));
    return entries;
  }

  #plugin(workflow: string): CompiledPlugin {
    if (workflow === BUILTIN) return this.#builtin;
    const wf = this.engine.registry.workflows.get(workflow);
    if (!wf) throw new ServiceError("unknown_workflow", `Workflow ${workflow} is not registered.`);
    return pluginOf(wf);
  }

  #scopeTarget(workflow: string, kind: PluginSlot) {
    const graph = this.engine.registry.workflows.get(workflow)?.graph;
    const nodes = graph ? new Set(graph.nodes.keys()) : null;
    return { workflow, anyWorkflow: workflow === BUILTIN, nodes, kind };
  }

  async callAction(workflow: string, name: string, body: ActionCall): Promise<Json> {
    const plugin = this.#plugin(workflow);
    const action = plugin.actions.get(name);
    if (!action) {
      throw new ServiceError(
        "not_found",
        `Workflow ${workflow} has no action ${JSON.stringify(name)}.`,
        {
          actions: [...plugin.actions.keys()],
        },
      );
    }
    let input: unknown = null;
    if (action.model) {
      const checked = action.model.check(body.input);
      if (!checked.ok) {
        throw validation(`The input does not fit action ${name}'s model.`, checked.issues);
      }
      input = checked.value;
    }
    const target = this.#scopeTarget(workflow, action.scope);
    const scope = await resolveScope(this.engine.store, target, body.scope ?? {}, [
      "body",
      "scope",
    ]);
    const ctx = pluginContext(
      { commands: this.engine.commands, service: this.service },
      workflow,
      scope,
    );
    const extras = { workflow, action: name };
    try {
      return toJson(await action.handler(input, scope, ctx));
    } catch (err) {
      throw pluginError(`Action ${name} of ${workflow}`, err, extras);
    }
  }

  async panelData(workflow: string, name: string, ids: ScopeIds): Promise<Json> {
    const plugin = this.#plugin(workflow);
    const panel = plugin.panels.get(name);
    if (!panel?.data) {
      const why = panel ? `is a ${panel.kind} panel, which has no data route` : "does not exist";
      throw new ServiceError("not_found", `Panel ${JSON.stringify(name)} of ${workflow} ${why}.`);
    }
    const scope = await resolveScope(
      this.engine.store,
      this.#scopeTarget(workflow, panel.scope),
      ids,
      ["query"],
    );
    const ctx = pluginContext(
      { commands: this.engine.commands, service: this.service },
      workflow,
      scope,
    );
    const what = `Panel ${name} of ${workflow}`;
    const extras = { workflow, panel: name };
    let value: Json;
    try {
      value = toJson(await panel.data(scope, ctx));
    } catch (err) {
      throw pluginError(what, err, extras);
    }
    const misfit = describeMisfit(panel.kind as DataKind, value);
    if (misfit) throw pluginError(what, new Error(misfit), extras);
    return value;
  }

  async asset(workflow: string, path: string): Promise<AssetBytes | null> {
    const wf = this.engine.registry.workflows.get(workflow);
    return wf ? readAsset(pluginOf(wf), path) : null;
  }
}
