// Registration commands: bind a workflow (register or replace: its store row, the
// `workflow.registered` / `workflow.replaced` event and the in-memory registry change together,
// so a client that refetches on the event sees the new state), unbind it, and bring the
// registrations table in line with the registry at start. Loading, checking and persisting the
// configuration row are the registrar's (service/registration/); what reaches the store is here.
import type { EngineCore } from "../core.ts";
import type { TaskRecord } from "../domain.ts";
import { inFlightTasks, recoverOrphans } from "../in-flight.ts";
import { Interrupt } from "../interrupt.ts";
import type { RegisteredWorkflow } from "../registry.ts";
import type { Work } from "../unit-of-work.ts";
import { notRegistered } from "./lookups.ts";

export type BindEvent = "workflow.registered" | "workflow.replaced";

/** Adds or replaces `wf` in memory and wakes its pool; the store is not touched. */
export function addToRegistry(core: EngineCore, wf: RegisteredWorkflow): void {
  if (!core.registry.pools.has(wf.pool)) throw new Error(`pool ${wf.pool} does not exist`);
  core.registry.workflows.set(wf.name, wf);
  core.observer.registered(wf.name, wf.pool);
  core.wake(wf.pool);
  // Its retries waiting out a backoff (from before a restart) need the pool's timer.
  void core.store
    .nextNotBefore([wf.name], core.clock.now())
    .then((at) => at !== null && core.wakeAt(wf.pool, at))
    .catch(() => {});
}

/** Registers or replaces `wf`; a first registration recovers attempts a removal orphaned. */
export async function bindWorkflow(
  core: EngineCore,
  wf: RegisteredWorkflow,
  event: BindEvent,
): Promise<void> {
  await core.uow.run(async (work) => {
    await work.tx.putRegistration({ workflow: wf.name, target: wf.target, pool: wf.pool });
    work.emit(event, null, null, { pool: wf.pool, target: wf.target, workflow: wf.name });
    if (event === "workflow.registered") await recoverOrphans(work, core.live, wf.name);
    // After commit, so the dispatcher never claims for a registration that rolled back.
    work.after(() => addToRegistry(core, wf));
  });
}

/**
 * Takes the workflow out of the registry first, so no new attempt of it is claimed, then
 * records the removal and stops its live attempts. An `in_progress` row is put back to `ready`
 * in the same transaction (its body is interrupted after commit and nothing runs it any more;
 * it runs again from its payload when the workflow is registered again); a `waiting` row keeps
 * its open request, which a person can still answer. Answers the in-flight task ids in spawn
 * order.
 */
export async function unbindWorkflow(core: EngineCore, name: string): Promise<number[]> {
  const wf = core.registry.workflows.get(name);
  if (!wf) throw notRegistered(name);
  core.registry.workflows.delete(name);
  try {
    return await core.uow.run(async (work) => {
      const going = await inFlightTasks(work.tx, name);
      const requeued = await requeueStopped(work, going);
      await work.tx.deleteRegistration(name);
      const ids = going.map((t) => t.id);
      work.emit("workflow.unregistered", null, null, { requeued, task_ids: ids, workflow: name });
      work.after(() => {
        for (const id of ids) core.interrupt(id, new Interrupt("unregistered"));
      });
      return ids;
    });
  } catch (err) {
    core.registry.workflows.set(name, wf);
    throw err;
  }
}

/** Puts the `in_progress` rows of `tasks` back to ready (their runs' `updated` moves too). */
async function requeueStopped(work: Work, tasks: readonly TaskRecord[]): Promise<number[]> {
  const ids: number[] = [];
  const runs: string[] = [];
  for (const t of tasks) {
    if (t.status !== "in_progress") continue;
    const reset = await work.tx.updateTask(
      t.id,
      { status: "ready", started: null, token_hash: null, waiting_since: null },
      { status: ["in_progress"], claim: t.claim },
    );
    if (!reset) continue;
    ids.push(t.id);
    if (!runs.includes(t.run_id)) runs.push(t.run_id);
  }
  if (runs.length) await work.tx.touchRuns(runs, work.now);
  return ids;
}

/**
 * At start the registry is rebuilt from the configuration (or the demo). The store's
 * registration rows outlive the process, so they are brought in line: rows of workflows not
 * registered any more go (unless other servers share the store: `keepOthers`), and every
 * registered workflow gets (or keeps) its row. A row that
 * survives keeps its place, so the plugin manifest's registration order survives restarts.
 */
export async function syncRegistrations(
  core: EngineCore,
  options: { keepOthers?: boolean } = {},
): Promise<void> {
  const stored = await core.store.listRegistrations();
  const registered = core.registry.workflows;
  await core.uow.run(async (work) => {
    for (const row of stored) {
      // Beside running servers, their registrations are theirs to keep (the server adopts them).
      if (options.keepOthers) continue;
      if (!registered.has(row.workflow)) await work.tx.deleteRegistration(row.workflow);
    }
    for (const wf of registered.values()) {
      await work.tx.putRegistration({ workflow: wf.name, target: wf.target, pool: wf.pool });
    }
  });
}
