// A body may ask two people at once (`Promise.all` of two `ctx.ask`). The attempt gives its
// pool slot up while it waits and takes one slot back per answer it resumes on; the second
// answer must not take (or wait for) a second slot for the same attempt.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../src/authoring/index.ts";
import { type Harness, startHarness } from "./support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function twoAsks() {
  const wf = workflow("both");
  wf.node({ start: true }, async function ask({}: any, _input: unknown, ctx: any) {
    const [x, y] = await Promise.all([
      ctx.ask({ prompt: "First?", options: ["a", "b"] }),
      ctx.ask({ prompt: "Second?" }),
    ]);
    return { x, y };
  });
  return wf;
}

async function answerBoth(runId: string) {
  await h.waitFor(() => h.named("request.opened", runId).length === 2, "both requests");
  const [first, second] = h.named("request.opened", runId).map((e) => e.data.request_id as number);
  await h.service.answerRequest(first, { option_id: "a" });
  await h.waitEvent("task.resumed", (e) => e.run_id === runId);
  await h.service.answerRequest(second, { value: "two" });
}

describe("parallel asks in one attempt", () => {
  for (const capacity of [1, 2]) {
    it(`resume on the attempt's one slot (pool capacity ${capacity})`, async () => {
      h = await startHarness({ pools: { default: { capacity } } });
      h.register(twoAsks());
      const { run_id } = await h.service.submitRun("both", { title: "t" });
      await answerBoth(run_id);
      const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
      expect(done.data.output).toEqual({ x: "a", y: "two" });
      // Every slot is back once nothing runs: none was counted twice.
      expect((await h.service.health()).pools).toEqual({ default: { capacity, in_flight: 0 } });
    });
  }

  it("a second run still gets the slot while the first waits on its second answer", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    h.register(twoAsks());
    const first = await h.service.submitRun("both", { title: "first" });
    await h.waitFor(() => h.named("request.opened", first.run_id).length === 2, "first asks");
    const second = await h.service.submitRun("both", { title: "second" });
    await h.waitFor(() => h.named("request.opened", second.run_id).length === 2, "second asks");
    await answerBoth(first.run_id);
    await answerBoth(second.run_id);
    await h.waitFor(() => h.named("run.completed").length === 2, "both runs");
    expect((await h.service.health()).pools!.default.in_flight).toBe(0);
  });
});
