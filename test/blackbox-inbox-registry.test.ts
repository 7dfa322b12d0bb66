// Black-box conformance: the real `yardmaster serve` process, driven over HTTP exactly as
// http-api.md and typescript.md read, for node asks and the inbox, the agent surface with a
// task token, workflow registration and plugins. Only fetch, the SSE stream and the official
// MCP client are used; nothing of the server is imported.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeProject } from "./support/blackbox-files.js";
import { call, readSse, type Served, serve, stop, tempDir, until } from "./support/blackbox-kit.js";

const project = tempDir("ym-bb2-");
const config = writeProject(project.dir);
const store = `sqlite:${join(project.dir, "s.db")}`;
let server: Served;

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  call(server.url, method, path, body, headers);
const get = (path: string) => api("GET", path);

async function submit(workflow: string, title: string): Promise<string> {
  const res = await api("POST", `/api/workflows/${workflow}/runs`, { title });
  expect(res.status).toBe(201);
  return res.body.run_id;
}

async function requestsOf(runId: string, count: number): Promise<any[]> {
  return until(`${count} requests of ${runId}`, async () => {
    const res = await get(`/api/runs/${runId}/requests`);
    return res.body.length >= count ? res.body : undefined;
  });
}

async function runEnded(runId: string): Promise<any> {
  return until(`run ${runId} to end`, async () => {
    const res = await get(`/api/runs/${runId}`);
    return ["completed", "failed", "cancelled"].includes(res.body.status) ? res.body : undefined;
  });
}

async function events(runId: string, name?: string): Promise<any[]> {
  const res = await get(`/api/runs/${runId}/events?limit=1000`);
  expect(res.status).toBe(200);
  return name ? res.body.filter((e: any) => e.name === name) : res.body;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]00:00)$/;

beforeAll(async () => {
  server = await serve(config, store);
}, 20_000);

afterAll(async () => {
  await stop(server);
  project.remove();
});

describe("ctx.ask from a node", () => {
  let runId: string;
  let ask: any;

  it("opens an options request with source node and ordinal 1, and parks the task", async () => {
    runId = await submit("inbox", "ask lifecycle");
    [ask] = await requestsOf(runId, 1);
    expect(ask).toMatchObject({
      run_id: runId,
      node: "asker",
      kind: "question",
      mode: "options",
      source: "node",
      prompt: "Pick one",
      options: [
        { option_id: "red", name: "red", kind: null },
        { option_id: "blue", name: "Blue!", kind: "allow_once" },
      ],
      pending: true,
      stale: false,
    });
    expect(ask.answered_by ?? null).toBeNull();
    expect(ask.answer ?? null).toBeNull();
    expect(ask.schema ?? null).toBeNull();
    expect(typeof ask.id).toBe("number");
    expect(typeof ask.task_id).toBe("number");
    expect(ask.created).toMatch(ISO);
    expect(typeof ask.age).toBe("number");
    expect(ask.age).toBeGreaterThanOrEqual(0);
    const task = await until("task waiting", async () => {
      const t = await get(`/api/tasks/${ask.task_id}`);
      return t.body.status === "waiting" ? t.body : undefined;
    });
    expect(task.node).toBe("asker");
    const opened = await events(runId, "request.opened");
    expect(opened).toHaveLength(1);
    expect(opened[0].data).toEqual({
      kind: "question",
      mode: "options",
      node: "asker",
      ordinal: 1,
      request_id: ask.id,
      source: "node",
    });
    const waiting = await events(runId, "task.waiting");
    expect(waiting[0].data).toEqual({ node: "asker", request_id: ask.id });
    expect(waiting[0].task_id).toBe(ask.task_id);
  });

  it("frees the pool slot while waiting: another run proceeds on the capacity-1 pool", async () => {
    const health = await get("/api/health");
    expect(health.body.pools.solo).toEqual({ capacity: 1, in_flight: 0 });
    const quick = await submit("quick", "while waiting");
    const done = await runEnded(quick);
    expect(done.status).toBe("completed");
    expect(done.output).toBe("quick done");
    const run = await get(`/api/runs/${runId}`);
    expect(run.body.pending_requests).toBe(1);
    expect(run.body.current_nodes).toEqual(["asker"]);
    const listed = (await get("/api/runs")).body.find((r: any) => r.id === runId);
    expect(listed.pending_requests).toBe(1);
  });

  it("reads option_id for an options request and refuses other answers", async () => {
    const byValue = await api("POST", `/api/requests/${ask.id}/answer`, { value: "red" });
    expect(byValue.status).toBeGreaterThanOrEqual(400);
    expect(byValue.status).toBeLessThan(500);
    expect(typeof byValue.body.code).toBe("string");
    expect(typeof byValue.body.error).toBe("string");
    const bad = await api("POST", `/api/requests/${ask.id}/answer`, { option_id: "green" });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.body.code).toBe("invalid_option");
    expect((await get(`/api/requests/${ask.id}`)).body.pending).toBe(true);
    const ok = await api("POST", `/api/requests/${ask.id}/answer`, { option_id: "blue" });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: ask.id, answer: "blue", answered_by: "user" });
    expect(ok.body.pending).toBe(false);
    expect(ok.body.stale).toBe(false);
    expect(typeof ok.body.age).toBe("number");
    const again = await api("POST", `/api/requests/${ask.id}/answer`, { option_id: "red" });
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.body.code).toBe("already_answered");
    const answered = await events(runId, "request.answered");
    expect(answered[0].data).toEqual({ author: "user", option_id: "blue", request_id: ask.id });
  });

  it("resumes with waited_s, numbers the next asks 2 and 3, and reads value for text", async () => {
    const [, text] = await requestsOf(runId, 2);
    const resumed = await events(runId, "task.resumed");
    expect(resumed[0].data.node).toBe("asker");
    expect(resumed[0].data.request_id).toBe(ask.id);
    expect(typeof resumed[0].data.waited_s).toBe("number");
    expect(text).toMatchObject({ kind: "elicitation", mode: "text", source: "node" });
    expect(text.options ?? null).toBeNull();
    const byOption = await api("POST", `/api/requests/${text.id}/answer`, { option_id: "x" });
    expect(byOption.status).toBeGreaterThanOrEqual(400);
    const ok = await api("POST", `/api/requests/${text.id}/answer`, { value: "hello" });
    expect(ok.status).toBe(200);
    expect(ok.body.answer).toBe("hello");
    const ordinals = (await events(runId, "request.opened")).map((e) => e.data.ordinal);
    expect(ordinals.slice(0, 2)).toEqual([1, 2]);
  });

  it("validates a form answer against its schema, naming the field", async () => {
    const [, , form] = await requestsOf(runId, 3);
    expect(form.mode).toBe("form");
    expect(form.schema).toMatchObject({ type: "object", required: ["age", "name"] });
    const opened = await events(runId, "request.opened");
    expect(opened[2].data.ordinal).toBe(3);
    const bad = await api("POST", `/api/requests/${form.id}/answer`, { value: { age: -1 } });
    expect(bad.status).toBe(422);
    expect(Array.isArray(bad.body.errors)).toBe(true);
    const named = JSON.stringify(bad.body.errors.map((e: any) => [e.loc, e.msg]));
    expect(named).toContain("age");
    expect(named).toContain("name");
    for (const e of bad.body.errors) {
      expect(Array.isArray(e.loc)).toBe(true);
      expect(typeof e.msg).toBe("string");
      expect(typeof e.type).toBe("string");
    }
    const ok = await api("POST", `/api/requests/${form.id}/answer`, {
      value: { age: 3, name: "x" },
    });
    expect(ok.status).toBe(200);
    const run = await runEnded(runId);
    expect(run.output).toEqual({ choice: "blue", text: "hello", form: { age: 3, name: "x" } });
    expect(run.pending_requests ?? 0).toBe(0);
  });
});

describe("the requests inbox", () => {
  let cancelled: any;
  let moved: any;
  let cancelledRun: string;
  let movedRun: string;

  it("turns a request stale when its run is cancelled", async () => {
    cancelledRun = await submit("inbox", "to cancel");
    [cancelled] = await requestsOf(cancelledRun, 1);
    expect((await api("POST", `/api/runs/${cancelledRun}/cancel`)).status).toBe(200);
    const view = (await get(`/api/requests/${cancelled.id}`)).body;
    expect(view).toMatchObject({ pending: false, stale: true });
    const late = await api("POST", `/api/requests/${cancelled.id}/answer`, { option_id: "red" });
    expect(late.status).toBeGreaterThanOrEqual(400);
    expect(late.body.code).toBe("stale_request");
    expect((await get(`/api/runs/${cancelledRun}`)).body.pending_requests ?? 0).toBe(0);
  });

  it("turns a request stale when its task is moved", async () => {
    movedRun = await submit("inbox", "to move");
    [moved] = await requestsOf(movedRun, 1);
    const res = await api("POST", `/api/tasks/${moved.task_id}/move`, { node: "other" });
    expect(res.status).toBe(200);
    expect(typeof res.body.task_id).toBe("number");
    const view = (await get(`/api/requests/${moved.id}`)).body;
    expect(view).toMatchObject({ pending: false, stale: true });
    const run = await runEnded(movedRun);
    expect(run.status).toBe("completed");
  });

  it("lists oldest first, filters pending, keeps stale ones when pending=false", async () => {
    const pendingRun = await submit("inbox", "left pending");
    const [open] = await requestsOf(pendingRun, 1);
    const all = (await get("/api/requests")).body as any[];
    const ids = all.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const pending = (await get("/api/requests?pending=true")).body as any[];
    expect(pending.map((r) => r.id)).toEqual([open.id]);
    const notPending = (await get("/api/requests?pending=false")).body as any[];
    const stale = notPending.filter((r) => r.stale);
    expect(stale.map((r) => r.id)).toEqual(expect.arrayContaining([cancelled.id, moved.id]));
    const byRun = await get(`/api/requests?run=${cancelledRun}`);
    expect(byRun.body.map((r: any) => r.id)).toEqual([cancelled.id]);
    const unknown = await get("/api/requests?run=01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual([]);
    const history = (await get(`/api/runs/${cancelledRun}/requests`)).body;
    expect(history.map((r: any) => r.id)).toEqual([cancelled.id]);
    await api("POST", `/api/runs/${pendingRun}/cancel`);
  });
});
