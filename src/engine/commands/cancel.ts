// Cancelling an attempt on an operator's word, shared by the run and task commands: an
// outstanding attempt is stopped (its row, its open requests, its body if it runs here), a
// stopped one is only filed as cancelled.
import { staleOpenRequests } from "../ask.ts";
import type { EngineCore } from "../core.ts";
import { OUTSTANDING, type TaskRecord, type TaskStatus } from "../domain.ts";
import { Interrupt, type InterruptReason } from "../interrupt.ts";
import type { Work } from "../unit-of-work.ts";

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
