// Task commands: rerun a node, move an attempt to another node, retry a stopped attempt, set an
// attempt's status. Each that enqueues work in an ended run re-opens it first.
import { staleOpenRequests } from "../ask.ts";
import type { EngineCore } from "../core.ts";
import { type BranchFrame, NEW_TASK_STATE, type TaskRecord } from "../domain.ts";
import { enqueueJoin, enqueueTask } from "../enqueue.ts";
import { refused } from "../errors.ts";
import { Interrupt } from "../interrupt.ts";
import { reopenRun, settleRun } from "../settle.ts";
import type { Work } from "../unit-of-work.ts";
import { cancelAttempt, cancelStopped, isOutstanding } from "./cancel.ts";
import { requireNode, requireRun, requireTask } from "./lookups.ts";

/** The statuses an operator may set on an attempt. */
export type OperatorStatus = "ready" | "cancelled" | "dead_letter";

/** A fresh attempt of `node` with the payload it last had; a join replays its stored arrivals. */
export async function rerunNode(
  core: EngineCore,
  runId: string,
  node: string,
  operator: string | null = null,
): Promise<number> {
  const taskId = await core.uow.run(async (work) => {
    const run = await requireRun(work.tx, runId);
    const spec = requireNode(core, run, node);
    const last = (await work.tx.listTasks({ run_id: runId, node })).at(-1);
    if (!last) throw refused(`Node ${node} has no attempt in run ${runId} to rerun.`);
    const open = await reopenRun(work, run);
    if (spec.join && last.lineage?.arrivals) {
      const fanout = last.lineage.from_task ?? 0;
      const task = await enqueueJoin(
        work,
        core.registry,
        open,
        node,
        fanout,
        last.branch,
        last.id,
        "rerun",
        last.attempt + 1,
      );
      return task.id;
    }
    const task = await enqueueTask(work, core.registry, {
      run: open,
      node,
      attempt: last.attempt + 1,
      payload_present: last.payload_present,
      payload: last.payload,
      branch: last.branch,
      lineage: { reason: "rerun", parent: last.id },
    });
    return task.id;
  }, operator);
  core.wake();
  return taskId;
}

/** Cancels the attempt (whatever its status) and enqueues its payload at `node`. */
export async function moveTask(
  core: EngineCore,
  taskId: number,
  node: string,
  operator: string | null = null,
): Promise<number> {
  const newId = await core.uow.run(async (work) => {
    const task = await requireTask(work.tx, taskId);
    const run = await requireRun(work.tx, task.run_id);
    const spec = requireNode(core, run, node);
    if (spec.join) {
      throw refused(`Node ${node} is a join; it is dispatched by its arrivals, not by a move.`);
    }
    // Spec: a move cancels the attempt whatever its status; a stopped one is filed as cancelled.
    if (isOutstanding(task.status)) await cancelAttempt(work, core, task, "move");
    else await cancelStopped(work, task, "move");
    const open = await reopenRun(work, run);
    const moved = await enqueueTask(work, core.registry, {
      run: open,
      node,
      attempt: 1,
      payload_present: task.payload_present,
      payload: task.payload,
      branch: task.branch,
      lineage: { reason: "move", parent: task.id },
    });
    work.emit("task.moved", run.id, task.id, { new_task_id: moved.id, node: task.node, to: node });
    return moved.id;
  }, operator);
  core.wake();
  return newId;
}

/** The next attempt of a stopped task: same node, payload, branch and `created`. */
export async function retryTask(
  core: EngineCore,
  taskId: number,
  operator: string | null = null,
): Promise<number> {
  const newId = await core.uow.run(async (work) => {
    const task = await requireTask(work.tx, taskId);
    // A retry waiting out its backoff (or the failed attempt it retries): run it now.
    const waitingRetry = await pendingRetryOf(work, task);
    if (waitingRetry) {
      await work.tx.updateTask(waitingRetry.id, { not_before: null });
      work.emit("task.status_set", waitingRetry.run_id, waitingRetry.id, {
        from: "ready",
        node: waitingRetry.node,
        to: "ready",
      });
      return waitingRetry.id;
    }
    if (isOutstanding(task.status)) {
      throw refused(
        `Task ${taskId} is still going (${task.status}); it can be retried once it stops.`,
        { status: task.status },
      );
    }
    const run = await reopenRun(work, await requireRun(work.tx, task.run_id));
    // Attempts count per branch, as automatic retries do: a sibling branch's retries of the
    // same node must not raise this one's number.
    // A loop, not Math.max(...): a node that loops back has more attempts than a call takes.
    let last = task.attempt;
    for (const t of await work.tx.listTasks({ run_id: run.id, node: task.node })) {
      if (t.attempt > last && sameBranch(t.branch, task.branch)) last = t.attempt;
    }
    const retry = await enqueueTask(work, core.registry, {
      run,
      node: task.node,
      attempt: last + 1,
      payload_present: task.payload_present,
      payload: task.payload,
      branch: task.branch,
      lineage: { reason: "manual_retry", parent: task.id },
      created: task.created,
    });
    return retry.id;
  }, operator);
  core.wake();
  return newId;
}

export async function setTaskStatus(
  core: EngineCore,
  taskId: number,
  status: OperatorStatus,
  operator: string | null = null,
): Promise<void> {
  await core.uow.run(async (work) => {
    const task = await requireTask(work.tx, taskId);
    const run = await requireRun(work.tx, task.run_id);
    work.emit("task.status_set", run.id, task.id, {
      from: task.status,
      node: task.node,
      to: status,
    });
    if (status === "cancelled") {
      if (!(await cancelAttempt(work, core, task, "set_status"))) {
        await cancelStopped(work, task, "set_status");
      }
      return settleRun(work, run.id, task);
    }
    const stopLive = task.status === "in_progress" || task.status === "waiting";
    const updated = await writeStatus(work, task, status);
    if (stopLive) work.after(() => core.interrupt(task.id, new Interrupt("set_status")));
    if (status === "dead_letter") return settleRun(work, run.id, updated);
    await reopenRun(work, run);
    work.emit("task.enqueued", run.id, task.id, {
      attempt: task.attempt,
      node: task.node,
      payload_present: task.payload_present,
      reason: "set_status",
      branch: task.branch.map(({ count, fanout, index }) => ({ count, fanout, index })),
      from_task: task.lineage?.parent ?? null,
      arrivals: task.lineage?.arrivals ?? null,
    });
  }, operator);
  core.wake();
}

async function writeStatus(work: Work, task: TaskRecord, status: "ready" | "dead_letter") {
  // Back to ready: the outcome fields read as on a fresh attempt (same row, id and claim count).
  const { started, finished, error, result, result_present, terminal } = NEW_TASK_STATE;
  const reset =
    status === "ready"
      ? {
          started,
          finished,
          error,
          result,
          result_present,
          terminal,
          not_before: null,
          sleep_until: null,
          // Run now: sleeps its body recorded are over, so a re-run passes them at once.
          sleeps: task.sleeps?.map((at) => (at === null ? at : Math.min(at, work.now))) ?? null,
        }
      : { finished: work.now, sleep_until: null };
  await staleOpenRequests(work, task.id);
  return (await work.tx.updateTask(task.id, { status, token_hash: null, ...reset }))!;
}

/**
 * The ready attempt that waits for its not-before which a retry of `task` means: the task
 * itself, or the automatic retry enqueued for it. Null when there is none.
 */
async function pendingRetryOf(work: Work, task: TaskRecord): Promise<TaskRecord | null> {
  const waits = (t: TaskRecord) => t.status === "ready" && t.not_before !== null;
  if (waits(task)) return task;
  if (task.status !== "failed") return null;
  const tasks = await work.tx.listTasks({ run_id: task.run_id, node: task.node });
  return tasks.find((t) => t.lineage?.parent === task.id && waits(t)) ?? null;
}

function sameBranch(a: readonly BranchFrame[], b: readonly BranchFrame[]): boolean {
  return (
    a.length === b.length && a.every((f, i) => f.fanout === b[i].fanout && f.index === b[i].index)
  );
}
