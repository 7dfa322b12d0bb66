// The records a command acts on, read inside its unit of work: a missing run, task or node is
// the command's refusal (not_found, unknown_workflow, unknown_node), not an internal fault.
import type { FinalNode } from "../../authoring/index.ts";
import type { EngineCore } from "../core.ts";
import type { RunRecord, TaskRecord } from "../domain.ts";
import { EngineError, missing } from "../errors.ts";
import type { StoreReader } from "../store.ts";

export async function requireRun(reader: StoreReader, runId: string): Promise<RunRecord> {
  const run = await reader.getRun(runId);
  if (!run) throw missing("Run", runId);
  return run;
}

export async function requireTask(reader: StoreReader, taskId: number): Promise<TaskRecord> {
  const task = await reader.getTask(taskId);
  if (!task) throw missing("Task", taskId);
  return task;
}

export const notRegistered = (workflow: string) =>
  new EngineError("unknown_workflow", `Workflow ${workflow} is not registered.`);

/** The node of the run's workflow, which must be registered and have it. */
export function requireNode(core: EngineCore, run: RunRecord, node: string): FinalNode {
  const reg = core.registry.workflows.get(run.workflow);
  if (!reg) throw notRegistered(run.workflow);
  const spec = reg.graph.nodes.get(node);
  if (!spec) {
    throw new EngineError(
      "unknown_node",
      `Workflow ${run.workflow} has no node ${JSON.stringify(node)}.`,
      { nodes: [...reg.graph.nodes.keys()] },
    );
  }
  return spec;
}
