// Retry backoff on the engine clock: the delays grow by the factor up to the cap, the retry
// waits `ready` without a slot and is claimed only when due, an operator runs it now, and a
// restart in the middle of a backoff keeps it.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { backoffDelayMs } from "../../src/engine/backoff.ts";
import { ManualClock } from "../../src/engine/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const T0 = Date.UTC(2026, 0, 1);
const settle = () => new Promise((r) => setTimeout(r, 50));

describe("backoff delays", () => {
  it("grow by the factor up to the cap; equal jitter stays between half and all", () => {
    const b = { initial: 1, factor: 2, max: 5, jitter: false };
    expect([1, 2, 3, 4, 5].map((n) => backoffDelayMs(b, n, () => 0))).toEqual([
      1000, 2000, 4000, 5000, 5000,
    ]);
    const j = { initial: 10 };
    expect(backoffDelayMs(j, 1, () => 0)).toBe(5000);
    expect(backoffDelayMs(j, 1, () => 0.999)).toBe(9995);
    expect(backoffDelayMs(j, 20, () => 0.5)).toBe(2_700_000);
  });
});

describe("retry backoff", () => {
  function flaky(fails: number, opts: Record<string, unknown>) {
    let calls = 0;
    const wf = workflow("flaky");
    wf.node({ start: true, retries: 5, ...opts }, async function a() {
      calls += 1;
      if (calls <= fails) throw new Error(`boom ${calls}`);
      return "ok";
    });
    return { wf, calls: () => calls };
  }

  it("waits each retry out, capped, on the engine clock, holding no slot", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock, pools: { default: { capacity: 1 } } });
    const f = flaky(3, { backoff: { initial: 2, factor: 3, max: 10, jitter: false } });
    h.register(f.wf);
    const other = workflow("other");
    other.node({ start: true }, async function b() {
      return "quick";
    });
    h.register(other);
    const { run_id } = await h.service.submitRun("flaky", { title: "t" });
    await h.waitFor(() => h!.named("task.failed", run_id).length === 1, "first failure");
    const [first] = h.named("task.failed", run_id);
    expect(first.data.retry_at).toBe(new Date(T0 + 2000).toISOString());
    // The retry waits ready with its not-before, and the pool's one slot is free meanwhile.
    const retry = await h.service.getTask(first.data.retry_task_id as number);
    expect(retry).toMatchObject({ status: "ready", not_before: first.data.retry_at });
    const quick = await h.service.submitRun("other", { title: "q" });
    await h.waitEvent("run.completed", (e) => e.run_id === quick.run_id);
    clock.advance(1999);
    await settle();
    expect(f.calls()).toBe(1);
    clock.advance(1);
    await h.waitFor(() => h!.named("task.failed", run_id).length === 2, "second failure");
    expect(h.named("task.failed", run_id)[1].data.retry_at).toBe(
      new Date(T0 + 2000 + 6000).toISOString(),
    );
    clock.advance(6000);
    await h.waitFor(() => h!.named("task.failed", run_id).length === 3, "third failure");
    // 2 * 3^2 = 18, capped at 10.
    expect(h.named("task.failed", run_id)[2].data.retry_at).toBe(
      new Date(T0 + 8000 + 10_000).toISOString(),
    );
    clock.advance(9999);
    await settle();
    expect(f.calls()).toBe(3);
    clock.advance(1);
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(f.calls()).toBe(4);
  });

  it("without a backoff the retry runs at once and task.failed has no retry_at", async () => {
    h = await startHarness({ clock: new ManualClock(T0) });
    const f = flaky(1, {});
    h.register(f.wf);
    const { run_id } = await h.service.submitRun("flaky", { title: "t" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect("retry_at" in h.named("task.failed", run_id)[0].data).toBe(false);
  });

  it("takes [defaults] backoff and its jitter from the injected randomness", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock, random: () => 0.5, defaults: { backoff: { initial: 4 } } });
    const f = flaky(1, {});
    h.register(f.wf);
    const { run_id } = await h.service.submitRun("flaky", { title: "t" });
    await h.waitFor(() => h!.named("task.failed", run_id).length === 1, "failure");
    expect(h.named("task.failed", run_id)[0].data.retry_at).toBe(new Date(T0 + 3000).toISOString());
    clock.advance(3000);
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
  });

  it("an operator retry or set-status ready runs a waiting retry now", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock });
    const f = flaky(2, { backoff: { initial: 3600, jitter: false } });
    h.register(f.wf);
    const { run_id } = await h.service.submitRun("flaky", { title: "t" });
    await h.waitFor(() => h!.named("task.failed", run_id).length === 1, "failure");
    const failed = h.named("task.failed", run_id)[0];
    // Retry of the failed attempt: its waiting retry runs now, no new attempt.
    const { task_id } = await h.service.retryTask(failed.task_id!);
    expect(task_id).toBe(failed.data.retry_task_id);
    await h.waitFor(() => h!.named("task.failed", run_id).length === 2, "second failure");
    const second = h.named("task.failed", run_id)[1];
    await h.service.setTaskStatus(second.data.retry_task_id as number, { status: "ready" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    const tasks = (await h.service.getRun(run_id)).tasks!;
    expect(tasks.map((t) => t.attempt)).toEqual([1, 2, 3]);
    expect(tasks[2].not_before).toBeUndefined();
  });

  it("a restart in the middle of a backoff keeps the retry waiting until due", async () => {
    const clock = new ManualClock(T0);
    h = await startHarness({ clock });
    const f = flaky(1, { backoff: { initial: 60, jitter: false } });
    h.register(f.wf);
    const { run_id } = await h.service.submitRun("flaky", { title: "t" });
    await h.waitFor(() => h!.named("task.failed", run_id).length === 1, "failure");
    const dir = h.dir;
    await h.engine.stop();
    await h.store.close();
    h = await startHarness({ clock, dir });
    h.register(f.wf);
    clock.advance(30_000);
    await settle();
    expect(f.calls()).toBe(1);
    clock.advance(30_000);
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(f.calls()).toBe(2);
  });
});
