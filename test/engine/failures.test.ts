// The failure policy: retries, NonRetryable and GraphError at once, node timeouts.
import { afterEach, describe, expect, it } from "vitest";
import { GraphError, NonRetryable, workflow } from "../../src/authoring/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe("failure policy", () => {
  it("retries up to the node's count, keeping created, then succeeds", async () => {
    h = await startHarness();
    let calls = 0;
    const wf = workflow("flaky");
    wf.node({ start: true, retries: 2 }, async function a() {
      calls += 1;
      if (calls < 3) throw new Error(`boom ${calls}`);
      return "ok";
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("flaky", { title: "t" });
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toBe("ok");
    const failed = h.named("task.failed", run_id);
    expect(failed.map((e) => e.data)).toEqual([
      expect.objectContaining({
        attempt: 1,
        error: "Error: boom 1",
        retryable: true,
        will_retry: true,
      }),
      expect.objectContaining({
        attempt: 2,
        error: "Error: boom 2",
        retryable: true,
        will_retry: true,
      }),
    ]);
    const detail = await h.service.getRun(run_id);
    expect(detail.tasks!.map((t) => [t.attempt, t.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
      [3, "done"],
    ]);
    expect(failed[0].data.retry_task_id).toBe(detail.tasks![1].id);
    expect(new Set(detail.tasks!.map((t) => t.created)).size).toBe(1);
    const retries = h.named("task.enqueued", run_id).filter((e) => e.data.reason === "retry");
    expect(retries).toHaveLength(2);
    const log = await h.service.runLog(run_id);
    expect(log.filter((e) => e.kind === "failure")).toHaveLength(2);
  });

  it("dead-letters when retries are exhausted and fails the run", async () => {
    h = await startHarness({ defaults: { retries: 1 } });
    const wf = workflow("always");
    wf.node({ start: true }, async function a() {
      throw new TypeError("nope");
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("always", { title: "t" });
    const failed = await h.waitEvent("run.failed", (e) => e.run_id === run_id);
    expect(failed.data).toMatchObject({ node: "a", code: null, error: "TypeError: nope" });
    const fails = h.named("task.failed", run_id);
    expect(fails.map((e) => e.data.will_retry)).toEqual([true, false]);
    expect(fails[1].data.retry_task_id).toBeNull();
    expect(h.named("task.dead_lettered", run_id)[0].data).toEqual({
      attempt: 2,
      node: "a",
      error: "TypeError: nope",
    });
  });

  it("NonRetryable and GraphError dead-letter at once despite retries", async () => {
    h = await startHarness();
    const wf = workflow("fatal");
    wf.node({ start: true, retries: 5 }, async function a({ b, c }: any, input: { title: string }) {
      if (input.title === "nr") throw new NonRetryable("no point");
      if (input.title === "ge") throw new GraphError("bad graph");
      return "ambiguous plain value from two edges";
    });
    wf.node(async function b() {});
    wf.node(async function c() {});
    h.register(wf);
    for (const title of ["nr", "ge", "amb"]) {
      const { run_id } = await h.service.submitRun("fatal", { title });
      await h.waitEvent("run.failed", (e) => e.run_id === run_id);
      const fails = h.named("task.failed", run_id);
      expect(fails).toHaveLength(1);
      expect(fails[0].data).toMatchObject({ retryable: false, will_retry: false });
      expect(h.named("task.dead_lettered", run_id)).toHaveLength(1);
    }
  });

  it("a node timeout raises NodeTimeout, which is retried", async () => {
    h = await startHarness();
    let calls = 0;
    const wf = workflow("slow");
    wf.node(
      { start: true, timeout: 0.05, retries: 1 },
      async function a({}: any, _p: unknown, ctx: any) {
        calls += 1;
        if (calls === 1) await new Promise((r) => ctx.signal.addEventListener("abort", r));
        return calls;
      },
    );
    h.register(wf);
    const { run_id } = await h.service.submitRun("slow", { title: "t" });
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toBe(2);
    const failed = h.named("task.failed", run_id)[0];
    expect(failed.data.error).toMatch(/^NodeTimeout/);
    expect(failed.data.will_retry).toBe(true);
  });

  it("a value JSON cannot carry dead-letters the attempt", async () => {
    h = await startHarness();
    const wf = workflow("bigint");
    wf.node({ start: true, retries: 3 }, async function a() {
      return { n: 10n };
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("bigint", { title: "t" });
    await h.waitEvent("run.failed", (e) => e.run_id === run_id);
    expect(h.named("task.failed", run_id)).toHaveLength(1);
  });
});
