// A body may ask two people at once (`Promise.all` of two `ctx.ask`). The attempt waits on a
// person until its last open ask is answered: meanwhile it holds no pool slot and its node
// timeout clock stays stopped; then it takes one slot back, once, and resumes.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function twoAsks(timeout?: number) {
  const wf = workflow("both");
  wf.node({ start: true, timeout }, async function ask({}: any, _input: unknown, ctx: any) {
    const [x, y] = await Promise.all([
      ctx.ask({ prompt: "First?", options: ["a", "b"] }),
      ctx.ask({ prompt: "Second?" }),
    ]);
    return { x, y };
  });
  const quick = workflow("quick");
  quick.node({ start: true }, async function go() {
    return "ran";
  });
  return [wf, quick];
}

async function openRequests(runId: string): Promise<number[]> {
  await h.waitFor(() => h.named("request.opened", runId).length === 2, "both requests");
  return h.named("request.opened", runId).map((e) => e.data.request_id as number);
}

async function answerBoth(runId: string) {
  const [first, second] = await openRequests(runId);
  await h.service.answerRequest(first, { option_id: "a" });
  await h.service.answerRequest(second, { value: "two" });
}

describe("parallel asks in one attempt", () => {
  for (const capacity of [1, 2]) {
    it(`resume on the attempt's one slot (pool capacity ${capacity})`, async () => {
      h = await startHarness({ pools: { default: { capacity } } });
      for (const wf of twoAsks()) h.register(wf);
      const { run_id } = await h.service.submitRun("both", { title: "t" });
      await answerBoth(run_id);
      const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
      expect(done.data.output).toEqual({ x: "a", y: "two" });
      // Every slot is back once nothing runs: none was counted twice.
      expect((await h.service.health()).pools).toEqual({ default: { capacity, in_flight: 0 } });
    });
  }

  it("holds no slot while its second ask is open: another run gets the one slot", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    for (const wf of twoAsks()) h.register(wf);
    const first = await h.service.submitRun("both", { title: "first" });
    const [a, b] = await openRequests(first.run_id);
    await h.service.answerRequest(a, { option_id: "a" });
    const other = await h.service.submitRun("quick", { title: "other" });
    await h.waitEvent("run.completed", (e) => e.run_id === other.run_id);
    const task = (await h.service.getRun(first.run_id)).tasks![0];
    expect(task.status).toBe("waiting");
    await h.service.answerRequest(b, { value: "two" });
    await h.waitEvent("run.completed", (e) => e.run_id === first.run_id);
    expect(h.named("task.resumed", first.run_id)).toHaveLength(1);
    expect((await h.service.health()).pools!.default.in_flight).toBe(0);
  });

  it("keeps its node timeout clock stopped until the last open ask is answered", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    for (const wf of twoAsks(0.2)) h.register(wf);
    const { run_id } = await h.service.submitRun("both", { title: "t" });
    const [a, b] = await openRequests(run_id);
    await h.service.answerRequest(a, { option_id: "a" });
    // Well past the node timeout, still waiting on a person for the second answer.
    await new Promise((r) => setTimeout(r, 600));
    await h.service.answerRequest(b, { value: "two" });
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toEqual({ x: "a", y: "two" });
  });
});
