// Claiming ready tasks inside a unit of work, shared by the dispatcher (filling free slots) and
// by a completing attempt (handing its own slot on): the claim itself, and the run's first
// start. The caller starts the claimed attempts once the unit has committed.
import type { RunRecord, TaskRecord } from "./domain.ts";
import type { ClaimScope } from "./store.ts";
import type { Work } from "./unit-of-work.ts";

export interface Claimed {
  task: TaskRecord;
  run: RunRecord;
}

/**
 * Claims up to `limit` tasks of `workflows` in dispatch order and records their start; `scope`
 * where several servers share the store (the claiming server, the pool's capacity).
 */
export async function claimInto(
  work: Work,
  workflows: readonly string[],
  limit: number,
  scope?: ClaimScope,
): Promise<Claimed[]> {
  const tasks = await work.tx.claimTasks(workflows, limit, work.now, scope);
  const out: Claimed[] = [];
  for (const task of tasks) {
    let run = (await work.tx.getRun(task.run_id))!;
    if (run.status === "queued") {
      run = await work.tx.updateRun(run.id, {
        status: "running",
        started: true,
        updated: work.now,
      });
      work.emit("run.started", run.id, task.id, { node: task.node, task_id: task.id });
    }
    work.emit("task.started", run.id, task.id, { attempt: task.attempt, node: task.node });
    out.push({ task, run });
  }
  return out;
}
