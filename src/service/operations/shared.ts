// Pieces shared by the operator use cases.

import { staleOpenRequests } from "../../engine/ask.ts";
import type { EngineCore } from "../../engine/core.ts";
import type { RunRecord, TaskRecord, TaskStatus } from "../../engine/domain.ts";
import { OUTSTANDING } from "../../engine/domain.ts";
import { Interrupt, type InterruptReason } from "../../engine/interrupt.ts";
import type { StoreReader } from "../../engine/store.ts";
import type { Work } from "../../engine/unit-of-work.ts";
import { notFound, ServiceError } from "../errors.ts";

export async function requireRun(reader: StoreReader, runId: string): Promise<RunRecord> {
  const run = await reader.getRun(runId);
  if (!run) throw notFound("Run", runId);
  return run;
}

export async function requireTask(reader: StoreReader, taskId: number): Promise<TaskRecord> {
  const task = await reader.getTask(taskId);
  if (!task) throw notFound("Task", taskId);
  return task;
}

export function requireNode(core: EngineCore, run: RunRecord, node: string) {
  const reg = core.registry.workflows.get(run.workflow);
  if (!reg) {
    throw new ServiceError("unknown_workflow", `Workflow ${run.workflow} is not registered.`);
  }
  const spec = reg.graph.nodes.get(node);
  if (!spec) {
    throw new ServiceError(
      "unknown_node",
      `Workflow ${run.workflow} has no node ${JSON.stringify(node)}.`,
      {
        nodes: [...reg.graph.nodes.keys()],
      },
    );
  }
  return spec;
}

export const isOutstanding = (status: TaskStatus) => OUTSTANDING.includes(status);

/**
 * Files a stopped attempt as cancelled (http-api.md: move and set status cancelled apply to a
 * task in any status): what replaces it no longer leaves it counted as an output or a failure
 * of its run. Its end time stays when it had one.
 */
export async function cancelStopped(
  work: Work,
  task: TaskRecord,
  reason: "move" | "set_status",
): Promise<void> {
  await work.tx.updateTask(task.id, { status: "cancelled", finished: task.finished ?? work.now });
  work.emit("task.cancelled", task.run_id, task.id, { from: task.status, node: task.node, reason });
}

/**
 * Cancels an outstanding attempt: writes the row, announces it and, after commit, stops its
 * body if it runs here. Answers null when the task was not outstanding any more.
 */
export async function cancelAttempt(
  work: Work,
  core: EngineCore,
  task: TaskRecord,
  reason: InterruptReason & ("cancel" | "move" | "delete" | "set_status"),
): Promise<TaskRecord | null> {
  const cancelled = await work.tx.updateTask(
    task.id,
    { status: "cancelled", finished: work.now, token_hash: null },
    { status: OUTSTANDING },
  );
  if (!cancelled) return null;
  work.emit("task.cancelled", task.run_id, task.id, { from: task.status, node: task.node, reason });
  await staleOpenRequests(work, task.id);
  if (task.status !== "ready") work.after(() => core.interrupt(task.id, new Interrupt(reason)));
  return cancelled;
}
