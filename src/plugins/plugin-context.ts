// The `ctx` a plugin action handler or panel data function receives: reads through the same
// operator use cases the HTTP API serves, and `publish`, the engine's command that can only name
// events of the plugin's own workflow (`plugin.<workflow>.<name>`).
import type { Commands } from "../engine/index.ts";
import type { OperatorService } from "../service/api.ts";
import type { PluginContext, PluginScope } from "./types.ts";

export interface ContextDeps {
  commands: Pick<Commands, "publishPluginEvent">;
  service: OperatorService;
}

export function pluginContext(
  deps: ContextDeps,
  workflow: string,
  scope: PluginScope,
): PluginContext {
  const runOf = (runId?: string): string => {
    const id = runId ?? scope.run_id;
    if (!id) throw new Error("this call has no run in scope; pass a run id");
    return id;
  };
  return {
    workflow,
    scope,
    publish: (name, data = {}) => deps.commands.publishPluginEvent(workflow, name, data, scope),
    run: (runId) => deps.service.getRun(runOf(runId)),
    runLog: (runId) => deps.service.runLog(runOf(runId)),
    log: async (text) => (await deps.service.appendRunLog(runOf(), { text: String(text) })).log_id,
  };
}
