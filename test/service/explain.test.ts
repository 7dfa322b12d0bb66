// "Why is this not running?" on a real server: every reason produced by a real situation (a
// pool of capacity 1 held by a long task, runs queued behind it, a paused run, a waiting ask,
// a removed workflow, finished tasks), and a run's `updated` moving with its tasks and requests.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";
import { gatedChain, runIn, submit, taskIn, writeWorkflow } from "../support/workflow-files.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    [
      "[server]",
      'host = "127.0.0.1"',
      "port = 0",
      "[pools.default]",
      "capacity = 4",
      "[pools.solo]",
      "capacity = 1",
      "",
    ].join("\n"),
  );
  writeWorkflow(s.dir, "held.ts", gatedChain("held", "h"));
  writeWorkflow(
    s.dir,
    "asks.ts",
    `import { workflow } from "YARDMASTER";
export const asks = workflow("asks");
asks.node({ start: true }, async function decide({ done }, _input: unknown, ctx) {
  return done(await ctx.ask({ prompt: "Go?", options: ["go", "stop"] }));
});
asks.node(async function done({}, choice: string) { return choice; });
`,
  );
  expect(
    (await s.call("POST", "/api/workflows", { target: "held.ts:held", pool: "solo" })).status,
  ).toBe(201);
  expect((await s.call("POST", "/api/workflows", { target: "asks.ts:asks" })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const explain = async (taskId: number) => {
  const r = await s.call("GET", `/api/tasks/${taskId}/explain`);
  expect(r.status).toBe(200);
  return r.body;
};
const codes = (body: any) => body.reasons.map((r: any) => r.code);
const updatedOf = async (runId: string) =>
  Date.parse((await s.call("GET", `/api/runs/${runId}`)).body.updated);

describe("GET /api/tasks/{id}/explain", () => {
  it("answers pool_full with its holders, queued_behind, running, run_paused, unregistered, finished", async () => {
    const gate = path.join(s.dir, "gate-1");
    const a = await submit(s, "held", "holds the slot", gate);
    const held = await taskIn(s, a, "first", "in_progress");
    const b = await submit(s, "held", "next in line", gate);
    const bTask = await taskIn(s, b, "first", "ready");
    const c = await submit(s, "held", "behind b", gate);
    const cTask = await taskIn(s, c, "first", "ready");

    const running = await explain(held.id);
    expect(running).toMatchObject({
      task_id: held.id,
      run_id: a,
      node: "first",
      status: "in_progress",
    });
    expect(running.reasons).toEqual([
      expect.objectContaining({ code: "running", attempt: 1, live: true, since: held.started }),
    ]);

    const bWhy = await explain(bTask.id);
    expect(bWhy.reasons).toEqual([
      {
        code: "pool_full",
        message: expect.stringContaining("solo"),
        pool: "solo",
        capacity: 1,
        in_flight: 1,
        holders: [{ task_id: held.id, run_id: a, node: "first", since: held.started }],
      },
    ]);
    const cWhy = await explain(cTask.id);
    expect(codes(cWhy)).toEqual(["pool_full", "queued_behind"]);
    expect(cWhy.reasons[1]).toMatchObject({ pool: "solo", ahead: 1 });

    // Paused: the run's own hold, nothing about the pool.
    expect((await s.call("POST", `/api/runs/${b}/pause`)).status).toBe(200);
    const paused = await explain(bTask.id);
    expect(codes(paused)).toEqual(["run_paused"]);
    // b no longer counts ahead of c: a paused run's tasks are not claimed.
    expect(codes(await explain(cTask.id))).toEqual(["pool_full"]);
    const runWhy = (await s.call("GET", `/api/runs/${b}/explain`)).body;
    expect(runWhy).toMatchObject({ run_id: b, status: "paused" });
    expect(codes(runWhy)).toEqual(["run_paused"]);
    expect(runWhy.tasks.map((t: any) => [t.task_id, t.reasons[0].code])).toEqual([
      [bTask.id, "run_paused"],
    ]);
    expect((await s.call("POST", `/api/runs/${b}/resume`)).status).toBe(200);

    // Removing the workflow: the held attempt goes back to ready, nothing is in progress, and
    // every task of its runs says the workflow is not registered.
    const removed = await s.call("DELETE", "/api/workflows/held");
    expect(removed.status).toBe(200);
    const health = (await s.call("GET", "/api/health")).body;
    expect(health.tasks_in_progress).toBe(0);
    expect(health.pools.solo.in_flight).toBe(0);
    const orphan = await explain(held.id);
    expect(orphan.status).toBe("ready");
    expect(orphan.reasons).toEqual([
      {
        code: "workflow_unregistered",
        message: expect.stringContaining("held"),
        workflow: "held",
      },
    ]);

    // Back: the three runs go through, and each task then says it finished.
    expect(
      (await s.call("POST", "/api/workflows", { target: "held.ts:held", pool: "solo" })).status,
    ).toBe(201);
    writeFileSync(gate, "open");
    for (const run of [a, b, c]) await runIn(s, run, ["completed"]);
    const done = await explain(held.id);
    expect(done.reasons).toEqual([expect.objectContaining({ code: "finished", status: "done" })]);
    const runDone = (await s.call("GET", `/api/runs/${a}/explain`)).body;
    expect(runDone.reasons).toEqual([
      expect.objectContaining({ code: "finished", status: "completed" }),
    ]);
    expect(runDone.tasks).toEqual([]);
  });

  it("answers waiting_on_person with the open request and since when; updated moves", async () => {
    const run = await submit(s, "asks", "ask me");
    const waiting = await taskIn(s, run, "decide", "waiting");
    const [request] = (await s.call("GET", `/api/runs/${run}/requests`)).body;
    const why = await explain(waiting.id);
    expect(why.reasons).toEqual([
      {
        code: "waiting_on_person",
        message: expect.stringContaining(`#${request.id}`),
        request_ids: [request.id],
        since: expect.any(String),
      },
    ]);
    const before = await updatedOf(run);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const answered = await s.call("POST", `/api/requests/${request.id}/answer`, {
      option_id: "go",
    });
    expect(answered.status).toBe(200);
    // The answer itself moves the run's updated (its tasks move on right after).
    expect(await updatedOf(run)).toBeGreaterThan(before);
    await runIn(s, run, ["completed"]);
    const events = (await s.call("GET", `/api/runs/${run}/events`)).body;
    expect(Date.parse((await s.call("GET", `/api/runs/${run}`)).body.updated)).toBe(
      Date.parse(events.at(-1).created),
    );
  });

  it("answers 404 for a task or run that does not exist", async () => {
    expect((await s.call("GET", "/api/tasks/999999/explain")).status).toBe(404);
    expect((await s.call("GET", "/api/runs/no-such-run/explain")).status).toBe(404);
  });
});

describe("a run's updated", () => {
  it("moves when a task of it changes status", async () => {
    const gate = path.join(s.dir, "gate-2");
    const run = await submit(s, "held", "moves", gate);
    await taskIn(s, run, "first", "in_progress");
    const started = await updatedOf(run);
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(gate, "open");
    await runIn(s, run, ["completed"]);
    await eventually(async () => (await updatedOf(run)) > started, "updated moved");
  });
});
