// The operator API over a real server, a real engine and a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RunSummary } from "../../src/service/schemas/index.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

async function runUntil(runId: string, statuses: string[]) {
  return eventually(async () => {
    const r = await s.call("GET", `/api/runs/${runId}`);
    return statuses.includes(r.body.status) && r.body;
  }, `run ${runId} in ${statuses}`);
}

async function submit(workflow: string, title: string, description?: string) {
  const r = await s.call("POST", `/api/workflows/${workflow}/runs`, { title, description });
  expect(r.status).toBe(201);
  return r.body.run_id as string;
}

describe("health, me, workflows", () => {
  it("health reports pools and counts without ids", async () => {
    const r = await s.call("GET", "/api/health");
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, pools: { default: { capacity: 4 } } });
    expect(typeof r.body.version).toBe("string");
    expect(typeof r.body.runs_running).toBe("number");
    expect(typeof r.body.tasks_in_progress).toBe("number");
  });

  it("me on a loopback bind is auth off and authenticated", async () => {
    const r = await s.call("GET", "/api/me");
    expect(r.body).toMatchObject({ auth: "off", authenticated: true, features: [] });
    expect(r.body.started_at).toMatch(ISO);
  });

  it("lists and shows workflows with their finalized graphs", async () => {
    const list = await s.call("GET", "/api/workflows");
    expect(list.body.map((w: { name: string }) => w.name)).toEqual([
      "asker",
      "chain",
      "fan",
      "forms",
    ]);
    const chain = await s.call("GET", "/api/workflows/chain");
    expect(chain.body).toMatchObject({
      name: "chain",
      start: "first",
      pool: "default",
      capacity: 4,
      plugin: { actions: [], panels: [] },
    });
    expect(chain.body.nodes.first).toEqual({
      edges: ["second"],
      generation: 0,
      label: "first",
      description: 'Title "sleep:<ms>" holds the first node that long; "fail" dead-letters it.',
      priority: null,
      retries: null,
      timeout: null,
    });
    const missing = await s.call("GET", "/api/workflows/nope");
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("unknown_workflow");
  });
});

describe("runs", () => {
  it("submits, completes, and shows the detail field by field", async () => {
    const runId = await submit("chain", "hello", "desc");
    expect(runId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    const run = await runUntil(runId, ["completed"]);
    expect(run).toMatchObject({
      id: runId,
      workflow: "chain",
      title: "hello",
      description: "desc",
      status: "completed",
      output: 10,
      current_nodes: [],
      pending_requests: 0,
    });
    expect(run.created).toMatch(ISO);
    expect(run.tasks.map((t: { node: string }) => t.node)).toEqual(["first", "second", "third"]);
    expect(run.tasks[0]).toMatchObject({
      attempt: 1,
      status: "done",
      explicit: false,
      terminal: false,
      branch: [],
    });
    expect(run.tasks[0].payload).toEqual({ title: "hello", description: "desc" });
    expect(JSON.stringify(run)).not.toMatch(/token/i);
    const task = await s.call("GET", `/api/tasks/${run.tasks[2].id}`);
    expect(task.body).toMatchObject({ node: "third", terminal: true, result: 10, submissions: [] });
    const events = await s.call("GET", `/api/runs/${runId}/events?limit=3`);
    expect(events.body.map((e: { name: string }) => e.name)).toEqual([
      "run.created",
      "task.enqueued",
      "run.started",
    ]);
    const next = await s.call(
      "GET",
      `/api/runs/${runId}/events?after=${events.body[2].id}&limit=2`,
    );
    expect(next.body[0].name).toBe("task.started");
    expect(next.body[0]).toMatchObject({ run_id: runId, data: { attempt: 1, node: "first" } });
    const log = await s.call("GET", `/api/runs/${runId}/log`);
    expect(log.body[0]).toMatchObject({ node: "first", author: "engine", text: "first saw hello" });
    const graph = await s.call("GET", `/api/runs/${runId}/graph`);
    expect(graph.body.edges).toEqual([
      { from: "first", to: "second", kind: "forward", traversed: 1 },
      { from: "second", to: "third", kind: "forward", traversed: 1 },
    ]);
    expect(graph.body.nodes[0]).toMatchObject({
      name: "first",
      state: "done",
      live: true,
      attempts: 1,
      join: false,
    });
  });

  it("filters the run list by status and workflow, in position order", async () => {
    const a = await submit("fan", "a,b");
    await runUntil(a, ["completed"]);
    const fans = await s.call("GET", "/api/runs?workflow=fan");
    expect(fans.body.every((r: { workflow: string }) => r.workflow === "fan")).toBe(true);
    const done = await s.call("GET", "/api/runs?status=completed");
    expect(done.body.every((r: { status: string }) => r.status === "completed")).toBe(true);
    const all = await s.call("GET", "/api/runs");
    const positions = all.body.map((r: { position: number }) => r.position);
    expect(positions).toEqual(positions.map((_: number, i: number) => i + 1));
    const bad = await s.call("GET", "/api/runs?status=bogus");
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("validation");
    expect(bad.body.errors[0].loc).toEqual(["query", "status"]);
  });

  it("patch, cancel with note, 409 on a second cancel, delete with 204", async () => {
    const runId = await submit("chain", "sleep:5000");
    await eventually(
      async () => (await s.call("GET", `/api/runs/${runId}`)).body.status === "running",
      "running",
    );
    const patched = await s.call("PATCH", `/api/runs/${runId}`, { title: "renamed" });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ title: "renamed", id: runId });
    const cancel = await s.call("POST", `/api/runs/${runId}/cancel`);
    expect(cancel.body).toEqual({ ok: true, note: "Stopped 1 attempt." });
    const again = await s.call("POST", `/api/runs/${runId}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("conflict");
    const pause = await s.call("POST", `/api/runs/${runId}/pause`);
    expect(pause.status).toBe(409);
    const del = await s.call("DELETE", `/api/runs/${runId}`);
    expect(del.status).toBe(204);
    expect((await s.call("GET", `/api/runs/${runId}`)).status).toBe(404);
  });

  it("pause and resume answer Ok and refuse wrong statuses", async () => {
    const runId = await submit("asker", "t");
    expect((await s.call("POST", `/api/runs/${runId}/resume`)).status).toBe(409);
    expect((await s.call("POST", `/api/runs/${runId}/pause`)).body).toEqual({ ok: true });
    expect((await s.call("POST", `/api/runs/${runId}/resume`)).body).toEqual({ ok: true });
    await s.call("POST", `/api/runs/${runId}/cancel`);
  });

  it("position accepts exactly one of direction and index", async () => {
    const runId = await submit("asker", "pos");
    const neither = await s.call("POST", `/api/runs/${runId}/position`, {});
    expect(neither.status).toBe(422);
    const both = await s.call("POST", `/api/runs/${runId}/position`, { direction: 1, index: 0 });
    expect(both.status).toBe(422);
    const top = await s.call("POST", `/api/runs/${runId}/position`, { index: 0 });
    expect(top.body).toEqual({ position: 1 });
    const up = await s.call("POST", `/api/runs/${runId}/position`, { direction: -1 });
    expect(up.body).toEqual({ position: 1 });
    const bad = await s.call("POST", `/api/runs/${runId}/position`, { direction: 2 });
    expect(bad.status).toBe(422);
    await s.call("POST", `/api/runs/${runId}/cancel`);
  });
});

describe("tasks and requests", () => {
  it("answers a node's question from the inbox and resumes the run", async () => {
    const runId = await submit("asker", "ask me");
    const req = await eventually(async () => {
      const list = await s.call("GET", `/api/requests?pending=true&run=${runId}`);
      return list.body[0];
    }, "pending request");
    expect(req).toMatchObject({
      run_id: runId,
      node: "decide",
      kind: "question",
      mode: "options",
      source: "node",
      prompt: "Proceed?",
      pending: true,
      stale: false,
      answered_by: null,
    });
    expect(typeof req.age).toBe("number");
    const list = (await s.call("GET", "/api/runs")).body;
    // The list is sent without response validation (its size): it must fit the schema anyway.
    expect(() => z.array(RunSummary).parse(list)).not.toThrow();
    const summary = list.find((r: { id: string }) => r.id === runId);
    expect(summary).toMatchObject({ pending_requests: 1, current_nodes: ["decide"] });
    const wrong = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "maybe" });
    expect(wrong.body.code).toBe("invalid_option");
    const ok = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      id: req.id,
      answer: "go",
      answered_by: "user",
      pending: false,
    });
    const twice = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
    expect(twice.body.code).toBe("already_answered");
    const run = await runUntil(runId, ["completed"]);
    expect(run.output).toBe("go");
    const history = await s.call("GET", `/api/runs/${runId}/requests`);
    expect(history.body).toHaveLength(1);
    expect((await s.call("GET", "/api/requests/999999")).status).toBe(404);
    expect((await s.call("GET", "/api/requests?run=nope")).body).toEqual([]);
  });

  it("retry, move, rerun and set status through HTTP", async () => {
    const runId = await submit("chain", "fail");
    const failed = await runUntil(runId, ["failed"]);
    const dead = failed.tasks[0];
    expect(dead.status).toBe("dead_letter");
    const moved = await s.call("POST", `/api/tasks/${dead.id}/move`, { node: "third" });
    expect(moved.status).toBe(200);
    expect(typeof moved.body.task_id).toBe("number");
    const done = await runUntil(runId, ["completed"]);
    expect(done.tasks.map((t: { node: string }) => t.node)).toEqual(["first", "third"]);
    expect(done.tasks[1].lineage).toMatchObject({ reason: "move", parent: dead.id });
    const rerun = await s.call("POST", `/api/runs/${runId}/rerun`, { node: "third" });
    expect(rerun.status).toBe(200);
    const unknown = await s.call("POST", `/api/runs/${runId}/rerun`, { node: "zzz" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("unknown_node");
    const retry = await s.call("POST", `/api/tasks/${dead.id}/retry`);
    expect(retry.status).toBe(200);
    const status = await s.call("POST", `/api/tasks/${dead.id}/status`, { status: "done" });
    expect(status.status).toBe(422);
    const setOk = await s.call("POST", `/api/tasks/${dead.id}/status`, { status: "cancelled" });
    expect(setOk.body).toEqual({ ok: true });
    const stream = await s.call("GET", `/api/tasks/${dead.id}/stream`);
    expect(stream.body).toEqual({ chunks: [], last_seq: 0, live: false });
    expect((await s.call("GET", "/api/tasks/987654")).status).toBe(404);
    expect((await s.call("GET", "/api/tasks/abc")).status).toBe(422);
  });
});
