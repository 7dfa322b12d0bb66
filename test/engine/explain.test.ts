// Explain against the claim: with the dispatcher not yet started, ready tasks stay ready, so
// `next` and `queued_behind` can be read, and the order they describe is the one the claim
// then takes.
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../src/engine/index.ts";
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

describe("explain of timed waits", () => {
  it("says not_due, with the time, for a retry waiting out its backoff and for a sleeping body", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    h = await startHarness({ clock });
    const wf = workflow("timed");
    let calls = 0;
    wf.node(
      { start: true, retries: 1, backoff: { initial: 60, jitter: false } },
      async function flaky({ nap }: any) {
        calls += 1;
        if (calls === 1) throw new Error("first fails");
        return nap(1);
      },
    );
    wf.node(async function nap({}: any, _n: number, ctx: any) {
      await ctx.sleep(30);
      return 2;
    });
    h.register(wf);
    const runId = await h.engine.commands.submitRun("timed", { title: "t" });
    const failed = await h.waitEvent("task.failed", (e) => e.run_id === runId);
    const retry = (await h.service.explainTask(failed.data.retry_task_id as number)).reasons;
    expect(retry[0]).toMatchObject({
      code: "not_due",
      until: new Date(clock.now() + 60_000).toISOString(),
    });
    clock.advance(60_000);
    const sleeping = await h.waitEvent("task.sleeping", (e) => e.run_id === runId);
    const asleep = (await h.service.explainTask(sleeping.task_id!)).reasons;
    expect(asleep[0]).toMatchObject({
      code: "not_due",
      until: new Date(clock.now() + 30_000).toISOString(),
    });
    clock.advance(30_000);
    await h.waitEvent("run.completed", (e) => e.run_id === runId);
  });
});
