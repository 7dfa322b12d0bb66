// Explain against the claim: with the dispatcher not yet started, ready tasks stay ready, so
// `next` and `queued_behind` can be read, and the order they describe is the one the claim
// then takes.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const codes = async (taskId: number) =>
  (await h!.service.explainTask(taskId)).reasons.map((r) => [
    r.code,
    "ahead" in r ? r.ahead : null,
  ]);

describe("explain follows dispatch order", () => {
  it("says next, then queued_behind by run position, and the claim agrees", async () => {
    h = await startHarness({ start: false, pools: { default: { capacity: 1 } } });
    const held = gate();
    const wf = workflow("ordered");
    wf.node({ start: true }, async function only() {
      await held.promise;
      return 1;
    });
    h.register(wf);
    const first = await h.engine.commands.submitRun("ordered", { title: "first" });
    const second = await h.engine.commands.submitRun("ordered", { title: "second" });
    const [t1] = await h.store.listTasks({ run_id: first });
    const [t2] = await h.store.listTasks({ run_id: second });
    expect(await codes(t1!.id)).toEqual([["next", null]]);
    expect(await codes(t2!.id)).toEqual([["queued_behind", 1]]);

    // The second run moves to the front of the dispatch list: the order flips.
    await h.engine.commands.positionRun(second, { index: 0 });
    expect(await codes(t2!.id)).toEqual([["next", null]]);
    expect(await codes(t1!.id)).toEqual([["queued_behind", 1]]);

    // Started, the claim takes the one explain called next; the other waits on the full pool.
    await h.engine.start();
    await h.waitFor(
      async () => (await h!.store.getTask(t2!.id))?.status === "in_progress",
      "t2 claimed",
    );
    expect((await h.store.getTask(t1!.id))?.status).toBe("ready");
    const why = await h.service.explainTask(t1!.id);
    expect(why.reasons).toEqual([
      expect.objectContaining({
        code: "pool_full",
        holders: [expect.objectContaining({ task_id: t2!.id, run_id: second })],
      }),
    ]);
    const run = await h.service.explainRun(second);
    expect(run.reasons).toEqual([]);
    expect(run.tasks[0]!.reasons[0]).toMatchObject({ code: "running", live: true });
    held.open();
    await h.waitFor(async () => (await h!.store.getRun(first))?.status === "completed", "done");
  });
});
