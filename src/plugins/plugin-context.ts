// The `ctx` a plugin action handler or panel data function receives: reads through the same
// operator use cases the HTTP API serves, and `publish`, which can only name events of the
// plugin's own workflow (`plugin.<workflow>.<name>`).
import { publishData } from "../engine/context-inputs.ts";
import type { UnitOfWork } from "../engine/unit-of-work.ts";
import type { OperatorService } from "../service/api.ts";
import type { PluginContext, PluginScope } from "./types.ts";

export interface ContextDeps {
  uow: UnitOfWork;
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
    async publish(name, data = {}) {
      const stored = publishData(name, data);
      await deps.uow.run(async (work) => {
        work.emit(`plugin.${workflow}.${name}`, scope.run_id, scope.task_id, stored);
      });
    },
    run: (runId) => deps.service.getRun(runOf(runId)),
    runLog: (runId) => deps.service.runLog(runOf(runId)),
    log: async (text) => (await deps.service.appendRunLog(runOf(), { text: String(text) })).log_id,
  };
}
