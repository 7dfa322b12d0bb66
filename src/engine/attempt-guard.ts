// Writes a live attempt makes on its own behalf (ctx.log, ctx.ask, ctx.publish, an agent's
// permission request) check, inside their unit of work, that the attempt still owns its row.
// Checking the in-memory stop switch before queuing the unit is not enough: a cancel, move or
// delete can commit in the same batch ahead of it, and its interrupt only fires after commit.
import type { Work } from "./unit-of-work.ts";

/** Whether task `taskId` is still going under the claim `claim` (nobody revoked it). */
export async function attemptOwnsRow(work: Work, taskId: number, claim: number): Promise<boolean> {
  const row = await work.tx.getTask(taskId);
  return (
    row !== null &&
    row.claim === claim &&
    (row.status === "in_progress" || row.status === "waiting")
  );
}
