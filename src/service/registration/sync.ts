// At start the registry is rebuilt from the configuration (or the demo). The store's
// registration rows outlive the process, so they are brought in line: rows of workflows not
// registered any more go, and every registered workflow gets (or keeps) its row. A row that
// survives keeps its place, so the plugin manifest's registration order survives restarts.
import type { Engine } from "../../engine/engine.ts";

export async function syncRegistrations(engine: Engine): Promise<void> {
  const stored = await engine.store.listRegistrations();
  const registered = engine.registry.workflows;
  await engine.uow.run(async (work) => {
    for (const row of stored) {
      if (!registered.has(row.workflow)) await work.tx.deleteRegistration(row.workflow);
    }
    for (const wf of registered.values()) {
      await work.tx.putRegistration({ workflow: wf.name, target: wf.target, pool: wf.pool });
    }
  });
}
