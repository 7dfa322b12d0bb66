// ctx.ask: waiting frees the slot, answers resume the attempt, requests are durable.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function approval(name: string, calls: { n: number }) {
  const wf = workflow(name);
  wf.node(
    { start: true },
    async function ask({ approved }: any, input: { title: string }, ctx: any) {
      calls.n += 1;
      if (input.title === "quick") return approved("no question");
      const choice = await ctx.ask({
        prompt: "Ship it?",
        options: ["yes", { option_id: "no", name: "No way" }],
      });
      const note = await ctx.ask({
        prompt: "Why?",
        schema: { type: "object", required: ["why"], properties: { why: { type: "string" } } },
      });
      return approved({ choice, note });
    },
  );
  wf.node(async function approved({}: any, v: unknown) {
    return v;
  });
  return wf;
}

/** Answers the approval's first ask with `choice`, then its second with `why`; the run's end. */
async function answerApproval(runId: string, firstId: number, choice: string, why: string) {
  await h!.service.answerRequest(firstId, { option_id: choice });
  const second = await h!.waitEvent(
    "request.opened",
    (e) => e.run_id === runId && e.data.ordinal === 2,
  );
  await h!.service.answerRequest(second.data.request_id as number, { value: { why } });
  return h!.waitEvent("run.completed", (e) => e.run_id === runId);
}

describe("ctx.ask", () => {
  it("parks the task without a slot, resumes on answers, and resolves with them", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const calls = { n: 0 };
    h.register(approval("approval", calls));
    const { run_id } = await h.service.submitRun("approval", { title: "slow" });
    const opened = await h.waitEvent("request.opened", (e) => e.run_id === run_id);
    expect(opened.data).toMatchObject({
      kind: "question",
      mode: "options",
      node: "ask",
      ordinal: 1,
      source: "node",
    });
    const waiting = await h.waitEvent("task.waiting", (e) => e.run_id === run_id);
    expect(waiting.data).toEqual({ node: "ask", request_id: opened.data.request_id });
    // the slot is free: another run completes while this one waits
    const other = await h.service.submitRun("approval", { title: "quick" });
    await h.waitEvent("run.completed", (e) => e.run_id === other.run_id);
    const run = await h.service.getRun(run_id);
    expect(run).toMatchObject({ pending_requests: 1, current_nodes: ["ask"] });
    expect(run.tasks![0].status).toBe("waiting");
    const requestId = opened.data.request_id as number;
    const view = await h.service.getRequest(requestId);
    expect(view).toMatchObject({
      mode: "options",
      pending: true,
      stale: false,
      answered_by: null,
      options: [
        { option_id: "yes", name: "yes", kind: null },
        { option_id: "no", name: "No way", kind: null },
      ],
    });
    await expect(h.service.answerRequest(requestId, { value: "yes" })).rejects.toMatchObject({
      code: "invalid_option",
    });
    await expect(h.service.answerRequest(requestId, { option_id: "maybe" })).rejects.toMatchObject({
      code: "invalid_option",
    });
    const answered = await h.service.answerRequest(requestId, { option_id: "yes" });
    expect(answered).toMatchObject({ answer: "yes", answered_by: "user", pending: false });
    await expect(h.service.answerRequest(requestId, { option_id: "no" })).rejects.toMatchObject({
      code: "already_answered",
    });
    const resumed = await h.waitEvent("task.resumed", (e) => e.run_id === run_id);
    expect(resumed.data).toMatchObject({ node: "ask", request_id: requestId });
    expect(typeof resumed.data.waited_s).toBe("number");
    const form = await h.waitEvent(
      "request.opened",
      (e) => e.run_id === run_id && e.data.ordinal === 2,
    );
    const formId = form.data.request_id as number;
    await expect(h.service.answerRequest(formId, { option_id: "yes" })).rejects.toMatchObject({
      code: "invalid_option",
    });
    await expect(h.service.answerRequest(formId, { value: { why: 3 } })).rejects.toMatchObject({
      code: "validation",
    });
    await h.service.answerRequest(formId, { value: { why: "ready" } });
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toEqual({ choice: "yes", note: { why: "ready" } });
    expect(h.named("request.answered", run_id).map((e) => e.data)).toEqual([
      { author: "user", option_id: "yes", request_id: requestId },
      { author: "user", option_id: null, request_id: formId },
    ]);
  });

  it("a cancelled run makes its pending request stale and unanswerable", async () => {
    h = await startHarness();
    h.register(approval("approval", { n: 0 }));
    const { run_id } = await h.service.submitRun("approval", { title: "t" });
    const opened = await h.waitEvent("request.opened", (e) => e.run_id === run_id);
    await h.service.cancelRun(run_id);
    const id = opened.data.request_id as number;
    expect(await h.service.getRequest(id)).toMatchObject({ pending: false, stale: true });
    expect(await h.service.listRequests({ pending: true })).toEqual([]);
    expect((await h.service.listRequests({})).map((r) => r.id)).toEqual([id]);
    await expect(h.service.answerRequest(id, { option_id: "yes" })).rejects.toMatchObject({
      code: "stale_request",
    });
  });

  it("a waiting task set back to ready stales its request; the re-run asks anew", async () => {
    const calls = { n: 0 };
    h = await startHarness();
    h.register(approval("approval", calls));
    const { run_id } = await h.service.submitRun("approval", { title: "t" });
    const first = await h.waitEvent("request.opened", (e) => e.run_id === run_id);
    const waiting = await h.waitEvent("task.waiting", (e) => e.run_id === run_id);
    await h.service.setTaskStatus(waiting.task_id!, { status: "ready" });
    const firstId = first.data.request_id as number;
    const again = await h.waitEvent(
      "request.opened",
      (e) => e.run_id === run_id && e.data.request_id !== firstId,
    );
    expect(again.data.ordinal).toBe(1);
    expect(await h.service.getRequest(firstId)).toMatchObject({ pending: false, stale: true });
    const secondId = again.data.request_id as number;
    await h.waitEvent("task.waiting", (e) => e.data.request_id === secondId);
    expect(await h.service.getRequest(secondId)).toMatchObject({ pending: true, stale: false });
    const done = await answerApproval(run_id, secondId, "yes", "again");
    expect(done.data.output).toEqual({ choice: "yes", note: { why: "again" } });
    expect(calls.n).toBe(2);
  });

  it("a restart while waiting keeps the request; the answer re-runs the body without asking twice", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ym-ask-"));
    const calls = { n: 0 };
    h = await startHarness({ dir });
    h.register(approval("approval", calls));
    const { run_id } = await h.service.submitRun("approval", { title: "t" });
    const opened = await h.waitEvent("request.opened", (e) => e.run_id === run_id);
    await h.waitEvent("task.waiting", (e) => e.run_id === run_id);
    await h.engine.stop();
    await h.store.close();
    h = await startHarness({ dir, start: false });
    h.register(approval("approval", calls));
    await h.engine.start();
    const id = opened.data.request_id as number;
    expect(await h.service.getRequest(id)).toMatchObject({ pending: true });
    const done = await answerApproval(run_id, id, "no", "later");
    expect(done.data.output).toEqual({ choice: "no", note: { why: "later" } });
    expect(calls.n).toBe(2);
    expect(await h.service.runRequests(run_id)).toHaveLength(2);
  });
});
