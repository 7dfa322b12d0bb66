// Writes a live attempt makes on its own behalf (ctx.log, ctx.ask, ctx.publish, an agent's
// permission request, and the agent surface's writes under the task token) check, inside their
// unit of work, that the attempt still owns its row. Checking the in-memory stop switch (or the
// token on arrival) before queuing the unit is not enough: a cancel, move or delete can commit
// in the same batch ahead of it, and its interrupt only fires after commit.
import type { TaskRecord } from "./domain.ts";
import type { StoreReader } from "./store.ts";
import type { Work } from "./unit-of-work.ts";

/** Task `taskId` as it stands, if it is still going under the claim `claim`; else null. */
export async function ownedRow(
  tx: StoreReader,
  taskId: number,
  claim: number,
): Promise<TaskRecord | null> {
  const row = await tx.getTask(taskId);
  const going = row?.status === "in_progress" || row?.status === "waiting";
  return going && row.claim === claim ? row : null;
}

/** Whether task `taskId` is still going under the claim `claim` (nobody revoked it). */
export async function attemptOwnsRow(work: Work, taskId: number, claim: number): Promise<boolean> {
  return (await ownedRow(work.tx, taskId, claim)) !== null;
}
