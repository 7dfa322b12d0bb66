// Retry backoff over a real engine and store, on a ManualClock: a retry waits `ready` with a
// not-before time, holds no slot, and is claimed only when due; the delays grow by the factor
// up to the cap; `task.failed` says when; an operator's retry or set-status runs it now; a
// restart in the middle of a backoff keeps it.
import { afterEach, describe, expect, it } from "vitest";
import { backoffProblems, finalBackoff, workflow } from "../../src/authoring/index.ts";
import { backoffDelayMs } from "../../src/engine/backoff.ts";
import { ManualClock } from "../../src/engine/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

const opened: Harness[] = [];
afterEach(async () => {
  for (const h of opened.splice(0)) await h.close();
});

async function harness(clock: ManualClock, options: Parameters<typeof startHarness>[0] = {}) {
  const h = await startHarness({ clock, ...options });
  opened.push(h);
  return h;
}

/** Fails its first `failures` attempts (counted across the process), then answers "ok". */
function flaky(name: string, failures: number, options: Record<string, unknown>) {
  let calls = 0;
  const wf = workflow(name);
  wf.node({ start: true, ...options } as never, async function work() {
    calls += 1;
    if (calls <= failures) throw new Error(`boom ${calls}`);
    return "ok";
  });
  return wf;
}

/** Lets the engine's microtasks and store writes settle without moving the clock. */
const settle = () => new Promise((r) => setTimeout(r, 50));

describe("backoff delays", () => {
  it("grow by the factor up to the cap; jitter stays between half and all of it", () => {
    const b = finalBackoff({ initial: 1, factor: 3, max: 10, jitter: false });
    expect([1, 2, 3, 4].map((n) => backoffDelayMs(b, n))).toEqual([1000, 3000, 9000, 10000]);
    const j = finalBackoff({ initial: 4 });
    expect(j).toEqual({ initial: 4, factor: 2, max: 3600, jitter: true });
    expect(backoffDelayMs(j, 2, () => 0)).toBe(4000);
    expect(backoffDelayMs(j, 2, () => 0.999999)).toBe(8000);
    for (let i = 0; i < 50; i++) {
      const d = backoffDelayMs(j, 1);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
  });

  it("refuses a malformed backoff with a sentence per problem", () => {
    expect(backoffProblems({ initial: 1, factor: 2, max: 60 })).toEqual([]);
    expect(backoffProblems(5)).toEqual([
      "backoff must be an object such as { initial: 1, factor: 2, max: 300 }",
    ]);
    expect(backoffProblems({ initial: 0, factor: 0.5, max: -1, jitter: "yes", base: 1 })).toEqual([
      'backoff: unknown key "base" (known: initial, factor, max, jitter)',
      "backoff.initial must be a positive number of seconds, got 0",
      "backoff.factor must be a number of at least 1, got 0.5",
      "backoff.max must be a number of seconds of at least initial, got -1",
      "backoff.jitter must be a boolean",
    ]);
    expect(backoffProblems({ initial: 10, max: 5 })).toEqual([
      "backoff.max must be a number of seconds of at least initial, got 5",
    ]);
    const wf = workflow("bad");
    wf.node({ start: true, backoff: { initial: -1 } } as never, async function a() {});
    expect(() => wf.finalize()).toThrow(/backoff.initial must be a positive number/);
  });
});

describe("retry backoff", () => {
  it("waits ready without a slot, is claimed only when due, and caps the delay", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1));
    const h = await harness(clock, { pools: { default: { capacity: 1 } } });
    h.register(
      flaky("flaky", 3, { retries: 3, backoff: { initial: 1, factor: 2, max: 3, jitter: false } }),
    );
    const other = workflow("other");
    other.node({ start: true }, async function quick() {
      return 1;
    });
    h.register(other);
    const t0 = clock.now();
    const { run_id: runId } = await h.service.submitRun("flaky", { title: "f" });
    const first = await h.waitEvent("task.failed", (e) => e.run_id === runId);
    expect(first.data).toMatchObject({
      attempt: 1,
      will_retry: true,
      retry_at: new Date(t0 + 1000).toISOString(),
    });
    const retryId = first.data.retry_task_id as number;
    const waiting = await h.store.getTask(retryId);
    expect(waiting).toMatchObject({ status: "ready", not_before: t0 + 1000, attempt: 2 });
    expect((await h.service.getTask(retryId)).not_before).toBe(new Date(t0 + 1000).toISOString());
    // No slot is held while it waits: another run goes through the pool of one.
    const quick = await h.service.submitRun("other", { title: "q" });
    await h.waitEvent("run.completed", (e) => e.run_id === quick.run_id);
    expect(h.engine.registry.pools.get("default")!.inFlight).toBe(0);
    clock.advance(999);
    await settle();
    expect((await h.store.getTask(retryId))!.status).toBe("ready");
    clock.advance(1);
    const second = await h.waitEvent("task.failed", (e) => e.task_id === retryId);
    expect((await h.store.getTask(retryId))!.started).toBe(t0 + 1000);
    expect(second.data.retry_at).toBe(new Date(t0 + 1000 + 2000).toISOString());
    clock.advance(2000);
    const third = await h.waitEvent(
      "task.failed",
      (e) => e.run_id === runId && e.data.attempt === 3,
    );
    // 1 * 2^2 = 4 s, capped at 3.
    expect(third.data.retry_at).toBe(new Date(t0 + 3000 + 3000).toISOString());
    clock.advance(2999);
    await settle();
    expect(h.named("run.completed", runId)).toHaveLength(0);
    clock.advance(1);
    await h.waitEvent("run.completed", (e) => e.run_id === runId);
    const attempts = (await h.store.listTasks({ run_id: runId })).map((t) => t.attempt);
    expect(attempts).toEqual([1, 2, 3, 4]);
    expect(clock.pending).toBe(0);
  });

  it("without a backoff retries at once and says nothing new in task.failed", async () => {
    const clock = new ManualClock();
    const h = await harness(clock);
    h.register(flaky("plain", 1, { retries: 1 }));
    const { run_id: runId } = await h.service.submitRun("plain", { title: "p" });
    await h.waitEvent("run.completed", (e) => e.run_id === runId);
    const failed = h.named("task.failed", runId)[0];
    expect(Object.keys(failed.data).sort()).toEqual(
      ["attempt", "error", "node", "retry_task_id", "retryable", "will_retry"].sort(),
    );
    const retry = await h.store.getTask(failed.data.retry_task_id as number);
    expect(retry!.not_before).toBeNull();
    expect("not_before" in (await h.service.getTask(retry!.id))).toBe(false);
  });

  it("uses the server's default backoff for a node that declares none", async () => {
    const clock = new ManualClock();
    const h = await harness(clock, {
      defaults: { backoff: finalBackoff({ initial: 30, jitter: false }) },
    });
    h.register(flaky("defaulted", 1, { retries: 1 }));
    const { run_id: runId } = await h.service.submitRun("defaulted", { title: "d" });
    const failed = await h.waitEvent("task.failed", (e) => e.run_id === runId);
    expect(failed.data.retry_at).toBe(new Date(clock.now() + 30_000).toISOString());
    clock.advance(30_000);
    await h.waitEvent("run.completed", (e) => e.run_id === runId);
  });

  it("runs a waiting retry now on an operator's retry of the failed attempt, without a second one", async () => {
    const clock = new ManualClock();
    const h = await harness(clock);
    h.register(flaky("op", 1, { retries: 1, backoff: { initial: 3600 } }));
    const { run_id: runId } = await h.service.submitRun("op", { title: "o" });
    const failed = await h.waitEvent("task.failed", (e) => e.run_id === runId);
    const retried = await h.service.retryTask(failed.task_id!);
    expect(retried.task_id).toBe(failed.data.retry_task_id);
    await h.waitEvent("run.completed", (e) => e.run_id === runId);
    expect((await h.store.listTasks({ run_id: runId })).map((t) => t.attempt)).toEqual([1, 2]);
  });

  it("runs a waiting retry now when an operator sets it ready", async () => {
    const clock = new ManualClock();
    const h = await harness(clock);
    h.register(flaky("setready", 1, { retries: 1, backoff: { initial: 3600 } }));
    const { run_id: runId } = await h.service.submitRun("setready", { title: "s" });
    const failed = await h.waitEvent("task.failed", (e) => e.run_id === runId);
    await h.service.setTaskStatus(failed.data.retry_task_id as number, { status: "ready" });
    await h.waitEvent("run.completed", (e) => e.run_id === runId);
    const retry = await h.store.getTask(failed.data.retry_task_id as number);
    expect(retry).toMatchObject({ status: "done", not_before: null });
  });

  it("keeps a backoff across a restart: not claimed before it is due, claimed once it is", async () => {
    const clock = new ManualClock();
    const h = await harness(clock);
    h.register(flaky("restart", 1, { retries: 1, backoff: { initial: 60, jitter: false } }));
    const { run_id: runId } = await h.service.submitRun("restart", { title: "r" });
    const failed = await h.waitEvent("task.failed", (e) => e.run_id === runId);
    const dueAt = clock.now() + 60_000;
    await h.engine.stop();
    clock.advance(30_000);
    const again = await harness(clock, { dir: h.dir });
    again.register(flaky("restart", 0, { retries: 1, backoff: { initial: 60, jitter: false } }));
    await settle();
    expect((await again.store.getTask(failed.data.retry_task_id as number))!.status).toBe("ready");
    clock.advance(29_999);
    await settle();
    expect(again.named("run.completed", runId)).toHaveLength(0);
    clock.advance(1);
    await again.waitEvent("run.completed", (e) => e.run_id === runId);
    const retry = await again.store.getTask(failed.data.retry_task_id as number);
    expect(retry!.started).toBe(dueAt);
  });
});
