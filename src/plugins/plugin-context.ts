// The `ctx` a plugin action handler or panel data function receives: reads through the same
// operator use cases the HTTP API serves, and `publish`, which can only name events of the
// plugin's own workflow (`plugin.<workflow>.<name>`).
import type { UnitOfWork } from "../engine/unit-of-work.ts";
import type { OperatorService } from "../service/api.ts";
import type { PluginContext, PluginScope } from "./types.ts";

/** The part after `plugin.<workflow>.`: no whitespace, so event-name globs can match it. */
const EVENT_PART = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

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
      if (typeof name !== "string" || !EVENT_PART.test(name)) {
        throw new Error(`ctx.publish: event name ${JSON.stringify(name)} must match ${EVENT_PART}`);
      }
      await deps.uow.run(async (work) => {
        work.emit(`plugin.${workflow}.${name}`, scope.run_id, scope.task_id, { ...data });
      });
    },
    run: (runId) => deps.service.getRun(runOf(runId)),
    runLog: (runId) => deps.service.runLog(runOf(runId)),
    log: async (text) => (await deps.service.appendRunLog(runOf(), { text: String(text) })).log_id,
  };
}
