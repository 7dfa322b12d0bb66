// Durable sleeps on the engine clock: the attempt gives its slot up and shows `waiting` with its
// wake time, resolves when due, its node timeout stops meanwhile, a restart in the middle keeps
// the remainder, and a past sleepUntil resolves at once.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { ManualClock } from "../../src/engine/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const T0 = Date.UTC(2026, 0, 1);
const settle = (ms = 50) => new Promise((r) => setTimeout(r, ms));

function sleeper(opts: Record<string, unknown> = {}) {
  const seen: string[] = [];
  const wf = workflow("napper");
  wf.node({ start: true, ...opts }, async function nap({}, _p: unknown, ctx: any) {
    seen.push("before");
    await ctx.sleep(60);
    seen.push("middle");
    await ctx.sleepUntil(new Date(T0 - 1000));
    await ctx.sleep(30);
    seen.push("after");
    return "rested";
  });
  return { wf, seen };
}

describe("ctx.sleep", () => {
  it("releases the slot, shows waiting until its wake time, resolves when due", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock, pools: { default: { capacity: 1 } } });
    const s = sleeper();
    h.register(s.wf);
    const other = workflow("other");
    other.node({ start: true }, async function b() {
      return 1;
    });
    h.register(other);
    const { run_id } = await h.service.submitRun("napper", { title: "t" });
    const sleeping = await h.waitEvent("task.sleeping", (e) => e.run_id === run_id);
    expect(sleeping.data).toEqual({
      node: "nap",
      ordinal: 1,
      until: new Date(T0 + 60_000).toISOString(),
    });
    const task = await h.service.getTask(sleeping.task_id!);
    expect(task).toMatchObject({ status: "waiting", sleep_until: sleeping.data.until });
    // The one slot is free while it sleeps.
    const quick = await h.service.submitRun("other", { title: "q" });
    await h.waitEvent("run.completed", (e) => e.run_id === quick.run_id);
    clock.advance(59_999);
    await settle();
    expect(s.seen).toEqual(["before"]);
    clock.advance(1);
    // The past sleepUntil resolves at once; the second sleep waits 30 s more.
    await h.waitFor(() => h!.named("task.sleeping", run_id).length === 2, "second sleep");
    expect(h.named("task.sleeping", run_id)[1].data.ordinal).toBe(3);
    clock.advance(30_000);
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(s.seen).toEqual(["before", "middle", "after"]);
    expect(h.named("task.resumed", run_id).map((e) => e.data.waited_s)).toEqual([60, 30]);
    expect((await h.service.getTask(sleeping.task_id!)).sleep_until).toBeUndefined();
  });

  it("stops the node timeout clock while it sleeps", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock });
    const wf = workflow("slow");
    wf.node({ start: true, timeout: 0.3 }, async function nap({}, _p: unknown, ctx: any) {
      await ctx.sleep(3600);
      return "ok";
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("slow", { title: "t" });
    await h.waitEvent("task.sleeping", (e) => e.run_id === run_id);
    await settle(600);
    clock.advance(3_600_000);
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toBe("ok");
  });

  it("a restart mid-sleep runs the body again at the wake time with the remainder only", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock });
    const s = sleeper();
    h.register(s.wf);
    const { run_id } = await h.service.submitRun("napper", { title: "t" });
    const sleeping = await h.waitEvent("task.sleeping", (e) => e.run_id === run_id);
    const dir = h.dir;
    await h.engine.stop();
    await h.store.close();
    clock.advance(20_000);
    h = await startHarness({ clock, dir });
    h.register(s.wf);
    const task = await h.service.getTask(sleeping.task_id!);
    expect(task).toMatchObject({ status: "ready", not_before: sleeping.data.until });
    clock.advance(39_999);
    await settle();
    expect(s.seen).toEqual(["before"]);
    clock.advance(1);
    // The re-run body's first sleep is due and resolves from the row; the next one sleeps.
    await h.waitFor(() => h!.named("task.sleeping", run_id).length === 1, "next sleep");
    expect(h.named("task.sleeping", run_id)[0].data.ordinal).toBe(3);
    expect(s.seen).toEqual(["before", "before", "middle"]);
    clock.advance(30_000);
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
  });

  it("a cancel during a sleep stops the attempt as during an ask", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock });
    const s = sleeper();
    h.register(s.wf);
    const { run_id } = await h.service.submitRun("napper", { title: "t" });
    await h.waitEvent("task.sleeping", (e) => e.run_id === run_id);
    await h.service.cancelRun(run_id);
    await h.waitEvent("run.cancelled", (e) => e.run_id === run_id);
    clock.advance(3_600_000);
    await settle();
    expect(s.seen).toEqual(["before"]);
    expect(h.errors).toEqual([]);
  });
});
