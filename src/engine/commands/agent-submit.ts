// An agent's result. A submission that fits the declared output model is stored
// (`submission.accepted`); one that misfits is only announced (`submission.rejected`, with the
// errors the service found), so the runner's next repair prompt can say why. Both are writes
// under the task token, re-checked when they commit. The call's own result is the latest
// submission when its turn ends, recorded with the session's end (agent-session.ts).
import type { EngineCore } from "../core.ts";
import type { Json, SubmissionRecord, TaskRecord } from "../domain.ts";
import type { EventData } from "../events.ts";
import { requireTokenLive } from "./attempt-token.ts";

/** Stores `payload` as the attempt's newest submission. */
export async function submitAgentResult(
  core: EngineCore,
  task: TaskRecord,
  payload: unknown,
): Promise<SubmissionRecord> {
  return core.uow.run(async (work) => {
    await requireTokenLive(work.tx, task);
    const sub = await work.tx.insertSubmission({
      task_id: task.id,
      created: work.now,
      payload: (payload ?? null) as Json,
    });
    work.emit("submission.accepted", task.run_id, task.id, {
      node: task.node,
      submission_id: sub.id,
    });
    return sub;
  });
}

/** Announces a submission the output model refused; stores nothing else. */
export async function rejectAgentSubmission(
  core: EngineCore,
  task: TaskRecord,
  errors: EventData<"submission.rejected">["errors"],
): Promise<void> {
  await core.uow.run(async (work) => {
    await requireTokenLive(work.tx, task);
    work.emit("submission.rejected", task.run_id, task.id, { node: task.node, errors });
  });
}

/** Why the runner prompts its agent again: what it submitted was refused, or it submitted nothing. */
export type RepairReason = "nothing_submitted" | "rejected";

/**
 * Announces the repair turn the runner starts (`submission.repair`). It writes no row, and is
 * not checked against the claim: the runner announces it from a session that is still running.
 */
export async function announceRepair(
  core: EngineCore,
  task: TaskRecord,
  reason: RepairReason,
  turn: number,
): Promise<void> {
  await core.uow.run(async (work) => {
    work.emit("submission.repair", task.run_id, task.id, { node: task.node, reason, turn });
  });
}
