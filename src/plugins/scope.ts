// Resolving the scope of an action call or a panel data request. The ids the declared scope
// needs must be supplied (run_id for run, task_id for task, node for node); every id supplied is
// checked to exist and to belong to the plugin's workflow, and a task fills in its run and node.
import type { RunRecord, StoreReader } from "../engine/index.ts";
import { notFound, ServiceError, validation } from "../service/errors.ts";
import type { PluginScope, PluginSlot } from "./types.ts";

export interface ScopeIds {
  run_id?: string | null;
  task_id?: number | null;
  node?: string | null;
}

export interface ScopeTarget {
  /** The plugin's workflow; `_builtin` views accept runs of any workflow (`anyWorkflow`). */
  workflow: string;
  anyWorkflow: boolean;
  /** Nodes a `node` id may name; null when not checked. */
  nodes: ReadonlySet<string> | null;
  kind: PluginSlot;
}

const NEEDS: Record<PluginSlot, keyof ScopeIds | null> = {
  run: "run_id",
  task: "task_id",
  node: "node",
  workflow: null,
  global: null,
};

/** `loc` is where the ids came from: ["body", "scope"] for an action, ["query"] for a panel. */
export async function resolveScope(
  store: StoreReader,
  target: ScopeTarget,
  ids: ScopeIds,
  loc: string[],
): Promise<PluginScope> {
  const need = NEEDS[target.kind];
  if (need !== null && (ids[need] === undefined || ids[need] === null)) {
    throw validation(`A ${target.kind}-scoped plugin call needs ${need}.`, [
      { loc: [...loc, need], msg: "Field required", type: "missing" },
    ]);
  }
  const scope: PluginScope = {
    kind: target.kind,
    workflow: target.workflow,
    run_id: ids.run_id ?? null,
    task_id: ids.task_id ?? null,
    node: ids.node ?? null,
  };
  if (scope.task_id !== null) await resolveTask(store, target, scope, loc);
  if (scope.run_id !== null) ownRun(target, await requireRun(store, scope.run_id));
  if (scope.node !== null && target.nodes && !target.nodes.has(scope.node)) {
    throw new ServiceError(
      "unknown_node",
      `Workflow ${target.workflow} has no node ${JSON.stringify(scope.node)}.`,
      { nodes: [...target.nodes] },
    );
  }
  return scope;
}

async function resolveTask(
  store: StoreReader,
  target: ScopeTarget,
  scope: PluginScope,
  loc: string[],
): Promise<void> {
  const task = await store.getTask(scope.task_id!);
  if (!task) throw notFound("Task", scope.task_id);
  if (scope.run_id !== null && scope.run_id !== task.run_id) {
    throw validation(`Task ${task.id} belongs to run ${task.run_id}, not ${scope.run_id}.`, [
      {
        loc: [...loc, "run_id"],
        msg: `task ${task.id} is of run ${task.run_id}`,
        type: "value_error",
      },
    ]);
  }
  scope.run_id = task.run_id;
  scope.node ??= task.node;
}

async function requireRun(store: StoreReader, runId: string): Promise<RunRecord> {
  const run = await store.getRun(runId);
  if (!run) throw notFound("Run", runId);
  return run;
}

/** A run of another workflow is, for this plugin, a run that does not exist. */
function ownRun(target: ScopeTarget, run: RunRecord): void {
  if (target.anyWorkflow || run.workflow === target.workflow) return;
  throw new ServiceError(
    "not_found",
    `Run ${JSON.stringify(run.id)} is a run of ${run.workflow}, not of ${target.workflow}.`,
  );
}
