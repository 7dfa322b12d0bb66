// The writes of a registration: the store row, the `workflow.*` event and the in-memory
// registry change together, so a client that refetches on the event sees the new state.
import type { Engine } from "../../engine/engine.ts";
import { Interrupt } from "../../engine/interrupt.ts";
import type { RegisteredWorkflow } from "../../engine/registry.ts";
import { inFlightTasks, recoverOrphans } from "./in-flight.ts";

/** Registers or replaces `wf`; a first registration recovers attempts a removal orphaned. */
export async function commitRegistration(
  engine: Engine,
  wf: RegisteredWorkflow,
  event: "workflow.registered" | "workflow.replaced",
): Promise<void> {
  await engine.uow.run(async (work) => {
    await work.tx.putRegistration({ workflow: wf.name, target: wf.target, pool: wf.pool });
    work.emit(event, null, null, { pool: wf.pool, target: wf.target, workflow: wf.name });
    if (event === "workflow.registered") await recoverOrphans(work, engine.live, wf.name);
    // After commit, so the dispatcher never claims for a registration that rolled back.
    work.after(() => engine.register(wf));
  });
}

/**
 * Takes `wf` out of the registry first, so no new attempt of it is claimed, then records the
 * removal and interrupts its live attempts without writing their rows (they stay where they
 * were). Answers the in-flight task ids in spawn order.
 */
export async function unregisterWorkflow(
  engine: Engine,
  wf: RegisteredWorkflow,
): Promise<number[]> {
  engine.registry.workflows.delete(wf.name);
  try {
    return await engine.uow.run(async (work) => {
      const ids = (await inFlightTasks(work.tx, wf.name)).map((t) => t.id);
      await work.tx.deleteRegistration(wf.name);
      work.emit("workflow.unregistered", null, null, { task_ids: ids, workflow: wf.name });
      work.after(() => {
        for (const id of ids) engine.interrupt(id, new Interrupt("unregistered"));
      });
      return ids;
    });
  } catch (err) {
    engine.registry.workflows.set(wf.name, wf);
    throw err;
  }
}
