// Attempts of one workflow that are in flight, and the recovery of those left behind.
//
// Removing a workflow puts its in_progress rows back to `ready` and interrupts their bodies
// (commands/registration.ts); a `waiting` row keeps its open request. Registering the workflow
// again recovers what is still orphaned the way a restart would: every in_progress row whose
// body no longer runs here (one a store kept from before removal requeued them) is reset to
// `ready` (`engine.recovered`) and runs again from its payload. A waiting row with its request
// still open needs nothing: once the request is answered the engine makes it ready, and the
// dispatcher claims it as soon as the workflow is back. A waiting row whose request went stale
// (an agent's permission request dies with the agent) would wait forever, so it is recovered
// like an in_progress one.
import type { TaskRecord } from "./domain.ts";
import type { StoreReader } from "./store.ts";
import type { Work } from "./unit-of-work.ts";

/** in_progress and waiting task rows of `workflow`'s runs, in spawn (id) order. */
export async function inFlightTasks(reader: StoreReader, workflow: string): Promise<TaskRecord[]> {
  const going = await reader.listTasks({ status: ["in_progress", "waiting"] });
  const mine = new Map<string, boolean>();
  const out: TaskRecord[] = [];
  for (const task of going) {
    let ofWorkflow = mine.get(task.run_id);
    if (ofWorkflow === undefined) {
      ofWorkflow = (await reader.getRun(task.run_id))?.workflow === workflow;
      mine.set(task.run_id, ofWorkflow);
    }
    if (ofWorkflow) out.push(task);
  }
  return out;
}

/**
 * A row whose body no longer runs here and that nothing will resume: in_progress, or waiting
 * with no request left open (what it waited on went stale with its agent's session).
 */
async function orphaned(work: Work, task: TaskRecord): Promise<boolean> {
  if (task.status === "in_progress") return true;
  return (await work.tx.listRequests({ task_id: task.id, pending: true })).length === 0;
}

/** Resets the orphaned rows of `workflow` to ready; answers their ids. */
export async function recoverOrphans(
  work: Work,
  live: ReadonlyMap<number, unknown>,
  workflow: string,
): Promise<number[]> {
  const ids: number[] = [];
  for (const t of await inFlightTasks(work.tx, workflow)) {
    if (live.has(t.id) || !(await orphaned(work, t))) continue;
    const reset = await work.tx.updateTask(
      t.id,
      { status: "ready", started: null, token_hash: null, waiting_since: null },
      { status: [t.status], claim: t.claim },
    );
    if (reset) ids.push(t.id);
  }
  if (ids.length > 0) work.emit("engine.recovered", null, null, { task_ids: ids });
  return ids;
}
