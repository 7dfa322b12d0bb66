// Recovery of attempts whose server is gone: at start-up (a crash left them), when a server of
// a shared store dies or loses its lease (cluster.ts), and when one stops and hands its work
// back. An attempt in progress never committed its outcome, so it is made ready and runs again
// (`engine.recovered`). An attempt waiting on a person keeps waiting, but its body died with its
// server: the agent requests its session made go stale and its task token is revoked (a token
// lives with its session), and once nothing it waits on is open it is made ready to run again
// (its answered asks resolve at once from the store).
import { staleOpenRequests } from "./ask.ts";
import type { EngineCore } from "./core.ts";
import type { TaskRecord } from "./domain.ts";
import type { Work } from "./unit-of-work.ts";

/**
 * Inside a unit: releases `tasks` (in progress or waiting) of a server that is gone; answers
 * the waiting ones, which the caller passes to `requeueOrphan` after commit.
 */
export async function releaseAttempts(
  core: EngineCore,
  work: Work,
  tasks: readonly TaskRecord[],
  serverId?: string,
): Promise<number[]> {
  const stuck = tasks.filter((t) => t.status === "in_progress");
  const waiting = tasks.filter((t) => t.status === "waiting");
  for (const t of tasks) await staleOpenRequests(work, t.id, "agent");
  for (const t of stuck) {
    await work.tx.updateTask(t.id, { status: "ready", started: null, token_hash: null });
  }
  for (const t of waiting) {
    // Nobody's now: whichever server sees its answer first runs it again.
    const owned = t.owner == null ? {} : { owner: null };
    if (t.token_hash !== null || t.owner != null) {
      await work.tx.updateTask(t.id, { token_hash: null, ...owned });
    }
  }
  if (stuck.length) {
    const data = { task_ids: stuck.map((t) => t.id) };
    work.after(() => core.observer.recovered(data.task_ids));
    work.emit("engine.recovered", null, null, serverId ? { ...data, server_id: serverId } : data);
  }
  return waiting.map((t) => t.id);
}

/**
 * A waiting task whose body is not running here (its server stopped while it waited) is
 * re-dispatched once its answer exists: the body runs again and its answered asks resolve at
 * once from the store. `self`: this server's id where the store is shared; a task another live
 * server owns is that server's to resume.
 */
export async function requeueOrphan(
  core: EngineCore,
  taskId: number,
  self: string | null,
): Promise<void> {
  if (core.live.has(taskId)) return;
  await core.uow.run(async (work) => {
    const task = await work.tx.getTask(taskId);
    if (task?.status !== "waiting") return;
    if (self !== null && task.owner != null && task.owner !== self) return;
    const pending = await work.tx.listRequests({ task_id: taskId, pending: true });
    if (pending.length) return;
    // A sleeper runs again at its wake time (its body's sleeps resolve from the row), not now.
    const notBefore = task.sleep_until ?? task.not_before;
    await work.tx.updateTask(taskId, {
      status: "ready",
      started: null,
      waiting_since: null,
      sleep_until: null,
      not_before: notBefore,
    });
    const last = (await work.tx.listRequests({ task_id: taskId })).at(-1);
    work.emit("task.resumed", task.run_id, task.id, {
      node: task.node,
      request_id: last?.id ?? null,
      waited_s: task.waiting_since ? (work.now - task.waiting_since) / 1000 : 0,
    });
    work.after(() => (notBefore === null ? core.wake() : core.wakeAt(null, notBefore)));
  });
}

/** After the unit that released them: requeues the waiting tasks nothing is open for. */
export async function requeueAnswered(
  core: EngineCore,
  waiting: readonly number[],
  self: string | null,
): Promise<void> {
  for (const id of waiting) {
    const pending = await core.store.listRequests({ task_id: id, pending: true });
    if (!pending.length) await requeueOrphan(core, id, self);
  }
}
