// Black-box conformance: the real `yardmaster serve` process, driven over HTTP exactly as
// http-api.md and typescript.md read, for node asks and the inbox, the agent surface with a
// task token, workflow registration and plugins. Only fetch, the SSE stream and the official
// MCP client are used; nothing of the server is imported. Then human input over a server in the
// test's process: a waiting task frees its slot, every answer mode and refusal, stale requests
// after cancel, and a server restart while a task waits.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { request } from "../support/http-client.ts";
import { writeProject } from "../support/inbox-project.ts";
import { type Served, serve, stop } from "../support/serve.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { envelopeOf, openStream, type SseFrame } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";

const project = { dir: mkdtempSync(join(tmpdir(), "ym-bb2-")) };
const config = writeProject(project.dir);
const store = `sqlite:${join(project.dir, "s.db")}`;
let server: Served;

const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  request(server.url, method, path, body, headers);
const get = (path: string) => api("GET", path);

async function submit(workflow: string, title: string): Promise<string> {
  const res = await api("POST", `/api/workflows/${workflow}/runs`, { title });
  expect(res.status).toBe(201);
  return res.body.run_id;
}

async function requestsOf(runId: string, count: number): Promise<any[]> {
  return eventually(async () => {
    const res = await get(`/api/runs/${runId}/requests`);
    return res.body.length >= count ? res.body : undefined;
  }, `${count} requests of ${runId}`);
}

async function runEnded(runId: string): Promise<any> {
  return eventually(async () => {
    const res = await get(`/api/runs/${runId}`);
    return ["completed", "failed", "cancelled"].includes(res.body.status) ? res.body : undefined;
  }, `run ${runId} to end`);
}

async function events(runId: string, name?: string): Promise<any[]> {
  const res = await get(`/api/runs/${runId}/events?limit=1000`);
  expect(res.status).toBe(200);
  return name ? res.body.filter((e: any) => e.name === name) : res.body;
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]00:00)$/;

beforeAll(async () => {
  server = await serve({
    dir: project.dir,
    args: ["--config", config, "--port", "0", "--store", store],
  });
}, 20_000);

afterAll(async () => {
  await stop(server);
  rmSync(project.dir, { recursive: true, force: true });
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
    const task = await eventually(async () => {
      const t = await get(`/api/tasks/${ask.task_id}`);
      return t.body.status === "waiting" ? t.body : undefined;
    }, "task waiting");
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
    expect(byValue.body.code).toBe("invalid_option");
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
    expect(byOption.body.code).toBe("invalid_option");
    const ok = await api("POST", `/api/requests/${text.id}/answer`, { value: "hello" });
    expect(ok.status).toBe(200);
    expect(ok.body.answer).toBe("hello");
    const answered = (await events(runId, "request.answered")).at(-1);
    expect(answered.data).toEqual({ author: "user", option_id: null, request_id: text.id });
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

describe("asks of a retried attempt", () => {
  it("numbers a new attempt's asks from 1 again and asks the person anew", async () => {
    const target = wf("retry.ts", "retry");
    expect((await api("POST", "/api/workflows", { target })).status).toBe(201);
    const runId = await submit("retry", "asks again");
    const [first] = await requestsOf(runId, 1);
    await api("POST", `/api/requests/${first.id}/answer`, { option_id: "x" });
    const [, second] = await requestsOf(runId, 2);
    expect(second.task_id).not.toBe(first.task_id);
    expect(second.pending).toBe(true);
    const opened = await events(runId, "request.opened");
    expect(opened.map((e) => e.data.ordinal)).toEqual([1, 1]);
    await api("POST", `/api/requests/${second.id}/answer`, { option_id: "y" });
    expect((await runEnded(runId)).output).toEqual({ pick: "y", attempt: 2 });
    const removed = await api("DELETE", "/api/workflows/retry?persist=true");
    expect(removed.status).toBe(200);
    expect(removed.headers.get("x-service-persisted")).toBeNull();
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

const token = (value: string) => ({ "X-Service-Token": value });

async function agentSeen(runId: string, node: string): Promise<any> {
  const task = await eventually(async () => {
    const run = await get(`/api/runs/${runId}`);
    return run.body.tasks?.find((t: any) => t.node === node);
  }, `a ${node} task`);
  const file = join(project.dir, `agent-${task.id}-1.json`);
  const seen = await eventually(
    async () => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined),
    `the agent of task ${task.id}`,
    15_000,
  );
  return { ...seen, id: task.id as number, tok: token(seen.env.token) };
}

const release = (taskId: number) => writeFileSync(join(project.dir, `release-${taskId}`), "");

async function mcpTools(value: string): Promise<string[]> {
  const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp/agent`), {
    requestInit: { headers: token(value) },
  });
  const client = new Client({ name: "blackbox", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const got = await client.callTool({ name: "get_task", arguments: {} });
    const text = (got.content as { text: string }[])[0]!.text;
    expect(typeof JSON.parse(text).task_id).toBe("number");
    return tools.map((t) => t.name).sort();
  } finally {
    await client.close();
  }
}

async function mcpStatus(value: string): Promise<number> {
  const res = await fetch(`${server.url}/mcp/agent`, {
    method: "POST",
    headers: {
      ...token(value),
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "blackbox", version: "1.0.0" },
      },
    }),
  });
  await res.text();
  return res.status;
}

describe("the agent surface with a task token", () => {
  let runId: string;
  let work: any;
  let review: any;
  let refusal: string;
  let optionsAsk: number;
  let textAsk: number;

  it("starts the ACP agent with the MCP server and the environment; AgentTask fields", async () => {
    runId = await submit("agentic", "agent run");
    work = await agentSeen(runId, "work");
    expect(work.env.url.replace(/\/$/, "")).toBe(server.url);
    expect(String(work.env.taskId)).toBe(String(work.id));
    const mcp = work.session.mcpServers[0];
    expect(mcp).toMatchObject({ type: "http", url: `${server.url}/mcp/agent` });
    expect(mcp.headers).toContainEqual({ name: "X-Service-Token", value: work.env.token });
    expect(work.task).toMatchObject({
      task_id: work.id,
      run_id: runId,
      workflow: "agentic",
      node: "work",
      attempt: 1,
      title: "agent run",
      description: "",
      log: [],
    });
    expect(work.task.output_schema).toMatchObject({
      type: "object",
      properties: { answer: { type: "string" } },
      required: ["answer"],
    });
    const detail = await get(`/api/tasks/${work.id}`);
    expect(JSON.stringify(detail.body)).not.toContain(work.env.token);
  });

  it("answers 422 naming an absent header and one 403 for every refused token", async () => {
    const bare = await get(`/api/agent/tasks/${work.id}`);
    expect(bare.status).toBe(422);
    expect(JSON.stringify(bare.body).toLowerCase()).toContain("x-service-token");
    const mcpBare = await api("POST", "/mcp/agent", { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(mcpBare.status).toBe(422);
    expect(JSON.stringify(mcpBare.body).toLowerCase()).toContain("x-service-token");
    const unknown = await api("GET", `/api/agent/tasks/${work.id}`, undefined, token("nope"));
    expect(unknown.status).toBe(403);
    refusal = unknown.body.error;
    const [someRequest] = (await get("/api/requests")).body;
    const other = await api("GET", `/api/agent/tasks/${someRequest.task_id}`, undefined, work.tok);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe(refusal);
    const otherLog = await api(
      "POST",
      `/api/agent/tasks/${someRequest.task_id}/log`,
      { text: "x" },
      work.tok,
    );
    expect(otherLog.status).toBe(403);
    expect(otherLog.body.error).toBe(refusal);
  });

  it("appends to the work log as agent, with log.appended", async () => {
    const res = await api("POST", `/api/agent/tasks/${work.id}/log`, { text: "did it" }, work.tok);
    expect(res.status).toBe(200);
    expect(typeof res.body.log_id).toBe("number");
    const task = await api("GET", `/api/agent/tasks/${work.id}`, undefined, work.tok);
    expect(task.body.log).toEqual([
      expect.objectContaining({
        id: res.body.log_id,
        author: "agent",
        node: "work",
        task_id: work.id,
        text: "did it",
      }),
    ]);
    const appended = (await events(runId, "log.appended")).at(-1);
    expect(appended.data).toEqual({
      author: "agent",
      kind: null,
      log_id: res.body.log_id,
      node: "work",
      preview: "did it",
    });
  });

  it("opens asks by mode with source agent and no ordinal; the poll waits and repeats", async () => {
    const path = `/api/agent/tasks/${work.id}`;
    const opts = await api(
      "POST",
      `${path}/ask`,
      { prompt: "Ok?", options: ["yes", { option_id: "no", name: "Nope", kind: "reject_once" }] },
      work.tok,
    );
    expect(opts.status).toBe(200);
    expect(opts.body.mode).toBe("options");
    optionsAsk = opts.body.request_id;
    const view = (await get(`/api/requests/${optionsAsk}`)).body;
    expect(view).toMatchObject({
      source: "agent",
      mode: "options",
      node: "work",
      task_id: work.id,
    });
    expect(view.options).toEqual([
      { option_id: "yes", name: "yes", kind: null },
      { option_id: "no", name: "Nope", kind: "reject_once" },
    ]);
    const opened = (await events(runId, "request.opened")).find(
      (e) => e.data.request_id === optionsAsk,
    );
    expect(opened.data).toMatchObject({ source: "agent", ordinal: null, mode: "options" });
    const text = await api("POST", `${path}/ask`, { prompt: "Why?" }, work.tok);
    expect(text.body.mode).toBe("text");
    textAsk = text.body.request_id;
    const form = await api(
      "POST",
      `${path}/ask`,
      { prompt: "F", schema: { type: "object" } },
      work.tok,
    );
    expect(form.body.mode).toBe("form");
    const now = await api("GET", `${path}/requests/${optionsAsk}?wait=0`, undefined, work.tok);
    expect(now.status).toBe(200);
    expect(now.body).toEqual({ request_id: optionsAsk, answered: false });
    const negative = await api("GET", `${path}/requests/${textAsk}?wait=-3`, undefined, work.tok);
    expect(negative.status).toBe(200);
    expect(negative.body.answered).toBe(false);
    const polling = api("GET", `${path}/requests/${optionsAsk}?wait=15`, undefined, work.tok);
    await api("POST", `/api/requests/${optionsAsk}/answer`, { option_id: "no" });
    const polled = await polling;
    expect(polled.body).toEqual({
      request_id: optionsAsk,
      answered: true,
      answer: "no",
      answered_by: "user",
    });
    const again = await api("GET", `${path}/requests/${optionsAsk}?wait=500`, undefined, work.tok);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(polled.body);
  });

  it("offers ask_operator and wait_answer over MCP under ask policy http", async () => {
    expect(await mcpTools(work.env.token)).toEqual(
      ["append_log", "ask_operator", "get_task", "submit_result", "wait_answer"].sort(),
    );
  });

  it("refuses a misfit submission with errors and schema; the latest valid one wins", async () => {
    const path = `/api/agent/tasks/${work.id}/submit`;
    const misfit = await api("POST", path, { answer: 5 }, work.tok);
    expect(misfit.status).toBe(422);
    expect(Array.isArray(misfit.body.errors)).toBe(true);
    expect(misfit.body.errors.length).toBeGreaterThan(0);
    expect(misfit.body.schema).toMatchObject({ type: "object", required: ["answer"] });
    const rejected = await events(runId, "submission.rejected");
    expect(rejected).toHaveLength(1);
    expect(rejected[0].data).toEqual({ node: "work", errors: misfit.body.errors });
    expect((await api("POST", path, { answer: "a" }, work.tok)).body.ok).toBe(true);
    expect((await api("POST", path, { answer: "b" }, work.tok)).body.ok).toBe(true);
    expect((await api("POST", path, { answer: 7 }, work.tok)).status).toBe(422);
    const detail = (await get(`/api/tasks/${work.id}`)).body;
    expect(detail.submissions.map((s: any) => s.payload)).toEqual([
      { answer: "a" },
      { answer: "b" },
    ]);
    for (const s of detail.submissions) {
      expect(s).toMatchObject({ task_id: work.id });
      expect(typeof s.id).toBe("number");
      expect(s.created).toMatch(ISO);
    }
    const accepted = await events(runId, "submission.accepted");
    expect(accepted.map((e) => e.data.node)).toEqual(["work", "work"]);
    release(work.id);
  });

  it("hands ctx.agent's result on; the next attempt's log has no stats entries", async () => {
    review = await agentSeen(runId, "review");
    expect(review.task.input).toEqual({ answer: "b" });
    expect(review.task.output_schema ?? null).toBeNull();
    const runLog = (await get(`/api/runs/${runId}/log`)).body as any[];
    expect(runLog.some((e) => e.kind === "stats")).toBe(true);
    expect(review.task.log.some((e: any) => e.kind === "stats")).toBe(false);
    expect(review.task.log.map((e: any) => e.text)).toContain("did it");
    const stale = (await get(`/api/requests/${textAsk}`)).body;
    expect(stale).toMatchObject({ pending: false, stale: true });
  });

  it("refuses ask without policy http, another task's poll, and ended tokens", async () => {
    const path = `/api/agent/tasks/${review.id}`;
    const ask = await api("POST", `${path}/ask`, { prompt: "May I?" }, review.tok);
    expect(ask.status).toBe(403);
    const foreign = await api(
      "GET",
      `${path}/requests/${optionsAsk}?wait=0`,
      undefined,
      review.tok,
    );
    expect(foreign.status).toBe(404);
    const ended = await api("GET", `/api/agent/tasks/${work.id}`, undefined, work.tok);
    expect(ended.status).toBe(403);
    expect(ended.body.error).toBe(refusal);
    const crossed = await api("GET", path, undefined, work.tok);
    expect(crossed.status).toBe(403);
    expect(crossed.body.error).toBe(refusal);
    expect(await mcpTools(review.env.token)).toEqual(["append_log", "get_task", "submit_result"]);
    expect(await mcpStatus(work.env.token)).toBe(403);
  });

  it("stores any JSON with no model; stats land in events, the log and RunDetail", async () => {
    const value = [1, "x", { k: null }];
    const res = await api("POST", `/api/agent/tasks/${review.id}/submit`, value, review.tok);
    expect(res.status).toBe(200);
    release(review.id);
    const run = await runEnded(runId);
    expect(run.status).toBe("completed");
    expect(run.output).toEqual(value);
    const stats = await events(runId, "agent.stats");
    expect(stats.map((e) => e.data.node)).toEqual(["work", "review"]);
    const allowed = [
      "node",
      "attempt",
      "status",
      "duration_s",
      "cost",
      "denied_permissions",
      "input_tokens",
      "model",
      "output_tokens",
      "repair_turns",
      "session_id",
      "tool_calls",
      "total_tokens",
      "reason",
    ];
    for (const e of stats) {
      expect(e.data).toMatchObject({ attempt: 1, status: "ok" });
      expect(typeof e.data.duration_s).toBe("number");
      for (const key of Object.keys(e.data)) expect(allowed).toContain(key);
    }
    const log = (await get(`/api/runs/${runId}/log`)).body as any[];
    expect(log.filter((e) => e.kind === "stats")).toHaveLength(2);
    expect(typeof run.stats.duration_s).toBe("number");
    expect(run.stats.input_tokens ?? null).toBeNull();
    expect(await mcpStatus(review.env.token)).toBe(403);
  });
});

const wf = (file: string, attr: string) => `${join(project.dir, "wf", file)}:${attr}`;

async function workflowEvent(name: string, workflow: string): Promise<any> {
  const stream = await openStream(`${server.url}/api/events?after=0&names=workflow.*`);
  try {
    const match = (f: SseFrame) => f.event === name && envelopeOf(f)?.data.workflow === workflow;
    const frames = await stream.until(`${name} of ${workflow}`, (got) => got.some(match), 8_000);
    return envelopeOf(frames.find(match)!);
  } finally {
    stream.close();
  }
}

async function loadFailure(target: string, stage: string): Promise<void> {
  const res = await api("POST", "/api/workflows", { target });
  expect(res.status).toBe(422);
  expect(res.body).toMatchObject({ code: "workflow_load_failed", target, stage });
  expect(typeof res.body.detail).toBe("string");
  expect(res.body.detail.length).toBeGreaterThan(0);
}

describe("workflow registration", () => {
  it("registers a target with 201 WorkflowOut, as GET reports it, and emits the event", async () => {
    const target = wf("swap.ts", "swap");
    const res = await api("POST", "/api/workflows", { target });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      name: "swap",
      start: "first",
      pool: "default",
      capacity: 4,
      in_flight: expect.any(Number),
      target,
      plugin: { actions: [], panels: [] },
      nodes: {
        first: {
          edges: ["second"],
          generation: 0,
          label: "first",
          description: null,
          priority: null,
          retries: null,
          timeout: null,
        },
        second: {
          edges: [],
          generation: 1,
          label: "Second step",
          description: "says which",
          priority: null,
          retries: 1,
          timeout: 12.5,
        },
      },
    });
    expect((await get("/api/workflows/swap")).body).toEqual(res.body);
    const event = await workflowEvent("workflow.registered", "swap");
    expect(event.data).toEqual({ pool: "default", target, workflow: "swap" });
    expect(event.run_id ?? null).toBeNull();
    const conflict = await api("POST", "/api/workflows", { target });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe("conflict");
  });

  it("reports each load stage that stopped, and an unknown pool naming the pools", async () => {
    await loadFailure("no-colon-here", "target");
    await loadFailure(wf("bad-import.ts", "x"), "import");
    await loadFailure(wf("quick.ts", "nothere"), "attribute");
    await loadFailure(wf("not-wf.ts", "thing"), "attribute");
    await loadFailure(wf("bad-graph.ts", "twostarts"), "finalize");
    await loadFailure(wf("bad-plugin.ts", "badplug"), "plugins");
    await loadFailure(wf("reserved.ts", "runs"), "register");
    const imported = await api("POST", "/api/workflows", { target: wf("bad-import.ts", "x") });
    expect(imported.body.detail).toContain("import exploded");
    const pool = await api("POST", "/api/workflows", {
      target: wf("gone.ts", "gone"),
      pool: "nope",
    });
    expect(pool.status).toBe(422);
    expect(pool.body.code).toBe("unknown_pool");
    for (const name of ["default", "solo", "held"])
      expect(JSON.stringify(pool.body)).toContain(name);
    expect((await get("/api/workflows/gone")).status).toBe(404);
  });

  it("replaces a workflow with PUT: the next task runs the new body", async () => {
    const runId = await submit("swap", "swap run");
    const [ask] = await requestsOf(runId, 1);
    const target = wf("swap-v2.ts", "swap");
    const res = await api("PUT", "/api/workflows/swap", { target });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "swap", target, pool: "default" });
    const event = await workflowEvent("workflow.replaced", "swap");
    expect(event.data).toEqual({ pool: "default", target, workflow: "swap" });
    await api("POST", `/api/requests/${ask.id}/answer`, { value: "go" });
    expect((await runEnded(runId)).output).toBe("v2");
    const missing = await api("PUT", "/api/workflows/nosuch", { target });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("unknown_workflow");
    const renamed = await api("PUT", "/api/workflows/swap", {
      target: wf("other-name.ts", "swap"),
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("conflict");
    expect((await get("/api/workflows/different")).status).toBe(404);
  });

  it("serves the module source with node lines", async () => {
    const res = await get("/api/workflows/swap/source");
    expect(res.status).toBe(200);
    const file = join(project.dir, "wf", "swap-v2.ts");
    expect(res.body.file).toBe(file);
    expect(res.body.source).toBe(readFileSync(file, "utf8"));
    expect(res.body.nodes.first).toEqual({ line: 3 });
    expect([6, 7]).toContain(res.body.nodes.second.line);
    expect((await get("/api/workflows/nosuch/source")).status).toBe(404);
  });

  it("persists a registration as a config row, and removes it with DELETE ?persist", async () => {
    const res = await api("POST", "/api/workflows", {
      target: wf("gone.ts", "gone"),
      pool: "held",
      persist: true,
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-service-persisted")).toBe(config);
    expect(readFileSync(config, "utf8")).toContain("[workflows.gone]");
    const plain = await api("POST", "/api/workflows", { target: wf("bad-graph.ts", "nope") });
    expect(plain.headers.get("x-service-persisted")).toBeNull();
  });

  it("keeps a removed workflow's runs listed as unregistered and recovers them", async () => {
    const blocked = await submit("blocker", "hold the pool");
    const holder = await eventually(async () => {
      const run = (await get(`/api/runs/${blocked}`)).body;
      return run.tasks?.find((t: any) => t.status === "in_progress");
    }, "blocker running");
    const move = await api("PUT", "/api/workflows/blocker", { pool: "default" });
    expect(move.status).toBe(409);
    expect(move.body.code).toBe("conflict");
    const queued = await submit("gone", "queued behind");
    const removed = await api("DELETE", "/api/workflows/gone?persist=true");
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ workflow: "gone", task_ids: [] });
    expect(removed.headers.get("x-service-persisted")).toBe(config);
    expect(readFileSync(config, "utf8")).not.toContain("[workflows.gone]");
    const listed = (await get("/api/runs")).body.find((r: any) => r.id === queued);
    expect(listed.unregistered).toBe(true);
    expect((await get(`/api/runs/${queued}`)).body.unregistered).toBe(true);
    const graph = await get(`/api/runs/${queued}/graph`);
    expect(graph.status).toBe(404);
    expect(graph.body.code).toBe("unknown_workflow");
    const gone = await get("/api/workflows/gone");
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("unknown_workflow");
    const again = await api("DELETE", "/api/workflows/gone");
    expect(again.status).toBe(404);
    expect(
      (await api("POST", "/api/workflows", { target: wf("gone.ts", "gone"), pool: "held" })).status,
    ).toBe(201);
    expect((await get(`/api/runs/${queued}`)).body.unregistered ?? false).toBe(false);
    const dropped = await api("DELETE", "/api/workflows/blocker");
    expect(dropped.body).toEqual({ workflow: "blocker", task_ids: [holder.id] });
    expect(dropped.headers.get("x-service-persisted")).toBeNull();
    const event = await workflowEvent("workflow.unregistered", "blocker");
    expect(event.data).toEqual({
      requeued: [holder.id],
      task_ids: [holder.id],
      workflow: "blocker",
    });
    expect((await get(`/api/runs/${blocked}`)).body.unregistered).toBe(true);
    writeFileSync(join(project.dir, "unblock"), "");
    const reloaded = await api("POST", "/api/workflows", {
      target: wf("blocker.ts", "blocker"),
      pool: "held",
    });
    expect(reloaded.status).toBe(201);
    expect((await runEnded(queued)).output).toBe("gone done");
    expect((await runEnded(blocked)).status).toBe("completed");
  });
});

describe("removing and replacing workflows with work in them", () => {
  it("re-reads a replaced file from disk for the recorded target", async () => {
    const file = join(project.dir, "wf", "gone.ts");
    writeFileSync(file, readFileSync(file, "utf8").replace("gone done", "gone v2"));
    expect((await api("PUT", "/api/workflows/gone", {})).status).toBe(200);
    expect((await runEnded(await submit("gone", "after edit"))).output).toBe("gone v2");
  });

  it("recovers a waiting node when its workflow is registered again", async () => {
    const runId = await submit("durable", "removed while waiting");
    const [first] = await requestsOf(runId, 1);
    const removed = await api("DELETE", "/api/workflows/durable");
    expect(removed.body).toEqual({ workflow: "durable", task_ids: [first.task_id] });
    expect((await get(`/api/runs/${runId}`)).body.unregistered).toBe(true);
    const back = await api("POST", "/api/workflows", { target: wf("durable.ts", "durable") });
    expect(back.status).toBe(201);
    const answered = await api("POST", `/api/requests/${first.id}/answer`, { option_id: "a" });
    expect(answered.status).toBe(200);
    const [, second] = await requestsOf(runId, 2);
    await api("POST", `/api/requests/${second.id}/answer`, { value: "then" });
    expect((await runEnded(runId)).output).toEqual({ first: "a", second: "then" });
  });
});

describe("plugins", () => {
  let manifest: any[];
  let plug: any;

  it("lists builtins first, then workflows in registration order", async () => {
    const res = await get("/api/plugins");
    expect(res.status).toBe(200);
    manifest = res.body;
    expect(manifest[0].workflow).toBe("_builtin");
    const order = manifest.map((m) => m.workflow);
    const configured = ["inbox", "quick", "agentic", "plug"];
    expect(order.filter((w) => configured.includes(w))).toEqual(configured);
    expect(order.indexOf("swap")).toBeGreaterThan(order.indexOf("plug"));
    expect(order.indexOf("gone")).toBeGreaterThan(order.indexOf("swap"));
    plug = manifest.find((m) => m.workflow === "plug");
    expect(plug.actions).toEqual([
      expect.objectContaining({
        name: "approve",
        title: "Approve",
        scope: "global",
        confirm: true,
      }),
      expect.objectContaining({
        name: "explode",
        title: "Explode",
        scope: "global",
        confirm: false,
      }),
    ]);
    expect(plug.actions[0].schema).toMatchObject({ type: "object", required: ["note", "count"] });
    expect(typeof plug.actions[1].schema).toBe("object");
    expect(plug.panels.map((p: any) => p.name)).toEqual([
      "md",
      "facts",
      "grid",
      "trend",
      "board",
      "approve_form",
      "viz",
    ]);
    for (const panel of plug.panels) {
      for (const key of ["name", "slot", "placement", "kind", "scope"]) {
        expect(typeof panel[key]).toBe("string");
      }
      expect(Array.isArray(panel.refresh_on)).toBe(true);
    }
    const wfOut = (await get("/api/workflows/plug")).body;
    expect(wfOut.plugin).toEqual({ actions: plug.actions, panels: plug.panels });
  });

  it("serves each panel's data at its source in the shape of its kind", async () => {
    const byName = Object.fromEntries(plug.panels.map((p: any) => [p.name, p]));
    const data = async (name: string) => {
      const res = await get(byName[name].source);
      expect(res.status).toBe(200);
      return res.body;
    };
    expect(await data("md")).toBe("# Hello");
    expect(await data("facts")).toEqual({ a: 1, b: "two" });
    expect(await data("grid")).toEqual({ columns: ["x", "y"], rows: [[1, 2]] });
    expect(await data("trend")).toMatchObject({ kind: "line", series: expect.any(Array) });
    expect(await data("board")).toMatchObject({ metrics: expect.any(Array) });
    expect(byName.approve_form).toMatchObject({ kind: "form", source: "approve" });
    expect(byName.viz).toMatchObject({ kind: "custom", element: "plug-viz", node: "only" });
    expect(byName.viz.source ?? null).toBeNull();
  });

  it("validates action input naming each field, runs the handler, reports plugin_error", async () => {
    const path = "/api/plugins/plug/actions";
    const bad = await api("POST", `${path}/approve`, { input: {}, scope: {} });
    expect(bad.status).toBe(422);
    const named = JSON.stringify(bad.body);
    expect(named).toContain("note");
    expect(named).toContain("count");
    const ok = await api("POST", `${path}/approve`, { input: { note: "hi", count: 2 }, scope: {} });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ approved: "hi", count: 2 });
    const boom = await api("POST", `${path}/explode`, { input: { anything: 1 }, scope: {} });
    expect(boom.status).toBeGreaterThanOrEqual(400);
    expect(boom.body.code).toBe("plugin_error");
  });

  it("serves assets under a ?v= that follows the file's bytes", async () => {
    expect(plug.assets).toHaveLength(1);
    const [before] = plug.assets as string[];
    expect(before).toMatch(/\?v=./);
    const served = await fetch(server.url + before);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toMatch(/javascript/);
    expect(await served.text()).toBe(readFileSync(join(project.dir, "wf", "viz.js"), "utf8"));
    writeFileSync(join(project.dir, "wf", "viz.js"), "export const changed = 2;\n");
    expect((await api("PUT", "/api/workflows/plug", {})).status).toBe(200);
    const after = (await get("/api/plugins")).body.find((m: any) => m.workflow === "plug")
      .assets[0];
    expect(after).not.toBe(before);
    expect(after.split("?")[0]).toBe(before.split("?")[0]);
    expect(await (await fetch(server.url + after)).text()).toBe("export const changed = 2;\n");
  });
});

describe("a restart while a node waits", () => {
  it("keeps the request answerable and never asks an answered ordinal twice", async () => {
    const runId = await submit("durable", "across a restart");
    const [first] = await requestsOf(runId, 1);
    await api("POST", `/api/requests/${first.id}/answer`, { option_id: "b" });
    const [, second] = await requestsOf(runId, 2);
    await stop(server);
    server = await serve({
      dir: project.dir,
      args: ["--config", config, "--port", "0", "--store", store],
    });
    const view = await eventually(async () => {
      const res = await get(`/api/requests/${second.id}`);
      return res.body.pending ? res.body : undefined;
    }, "the second ask pending again");
    expect(view).toMatchObject({ stale: false, mode: "text", source: "node" });
    expect((await get(`/api/requests?run=${runId}`)).body).toHaveLength(2);
    const ok = await api("POST", `/api/requests/${second.id}/answer`, { value: "later" });
    expect(ok.status).toBe(200);
    const run = await runEnded(runId);
    expect(run.output).toEqual({ first: "b", second: "later" });
    expect((await get(`/api/runs/${runId}/requests`)).body).toHaveLength(2);
    const opened = await events(runId, "request.opened");
    expect(opened.map((e) => e.data.ordinal)).toEqual([1, 2]);
    const resumed = await events(runId, "task.resumed");
    expect(resumed.map((e) => e.data.request_id)).toEqual([first.id, second.id]);
  });
});

describe("human input over a server in the test's process", () => {
  const ONE_SLOT = defaultToml().replace("capacity = 4", "capacity = 1");
  let s: TestServer | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  async function submit(workflow: string, title: string) {
    const r = await s!.call("POST", `/api/workflows/${workflow}/runs`, { title });
    return r.body.run_id as string;
  }

  const pendingOf = (runId: string) =>
    eventually(
      async () => (await s!.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0],
      "a pending request",
    );

  const statusOf = async (runId: string) =>
    (await s!.call("GET", `/api/runs/${runId}`)).body.status;

  describe("human input over HTTP", () => {
    it("a waiting task frees the only slot for another run", async () => {
      s = await startTestServer(ONE_SLOT);
      const waiting = await submit("asker", "waits");
      const req = await pendingOf(waiting);
      const other = await submit("chain", "other");
      await eventually(async () => (await statusOf(other)) === "completed", "other run completed");
      const health = (await s.call("GET", "/api/health")).body;
      expect(health).toMatchObject({
        pools: { default: { capacity: 1, in_flight: 0 } },
        tasks_in_progress: 0,
      });
      const detail = (await s.call("GET", `/api/runs/${waiting}`)).body;
      expect(detail.tasks[0].status).toBe("waiting");
      await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
      await eventually(
        async () => (await statusOf(waiting)) === "completed",
        "waiting run completed",
      );
    });

    it("answers each mode and refuses what does not fit", async () => {
      s = await startTestServer();
      const runId = await submit("forms", "t");
      const text = await pendingOf(runId);
      expect(text).toMatchObject({ mode: "text", kind: "question", options: null, schema: null });
      expect(
        (await s.call("POST", `/api/requests/${text.id}/answer`, { option_id: "x" })).body.code,
      ).toBe("invalid_option");
      expect(
        (await s.call("POST", `/api/requests/${text.id}/answer`, { value: "Ada" })).status,
      ).toBe(200);
      const form = await eventually(async () => {
        const r = (await s!.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0];
        return r?.id !== text.id && r;
      }, "form request");
      expect(form).toMatchObject({ mode: "form", kind: "elicitation" });
      const misfit = await s.call("POST", `/api/requests/${form.id}/answer`, {
        value: { age: -1 },
      });
      expect(misfit.status).toBe(422);
      expect(misfit.body).toMatchObject({ code: "validation" });
      expect(misfit.body.errors[0].loc).toEqual(["body", "value", "age"]);
      const missing = await s.call("POST", `/api/requests/${form.id}/answer`, { value: {} });
      expect(missing.body.errors[0].loc).toEqual(["body", "value", "age"]);
      await s.call("POST", `/api/requests/${form.id}/answer`, { value: { age: 36 } });
      const options = await eventually(async () => {
        const r = (await s!.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0];
        return r?.mode === "options" && r;
      }, "options request");
      expect(options.options).toEqual([
        { option_id: "yes", name: "Yes", kind: null },
        { option_id: "no", name: "no", kind: null },
      ]);
      expect(
        (await s.call("POST", `/api/requests/${options.id}/answer`, { value: "yes" })).body.code,
      ).toBe("invalid_option");
      await s.call("POST", `/api/requests/${options.id}/answer`, { option_id: "yes" });
      await eventually(async () => (await statusOf(runId)) === "completed", "completed");
      const run = (await s.call("GET", `/api/runs/${runId}`)).body;
      expect(run.output).toEqual({ name: "Ada", form: { age: 36 }, choice: "yes" });
      const history = (await s.call("GET", `/api/runs/${runId}/requests`)).body;
      expect(history.map((r: { answered_by: string }) => r.answered_by)).toEqual([
        "user",
        "user",
        "user",
      ]);
    });

    it("cancel makes the pending request stale: out of the inbox, no longer answerable", async () => {
      s = await startTestServer();
      const runId = await submit("asker", "t");
      const req = await pendingOf(runId);
      await s.call("POST", `/api/runs/${runId}/cancel`);
      expect((await s.call("GET", `/api/requests/${req.id}`)).body).toMatchObject({
        pending: false,
        stale: true,
      });
      expect((await s.call("GET", "/api/requests?pending=true")).body).toEqual([]);
      const all = (await s.call("GET", "/api/requests?pending=false")).body;
      expect(all.find((r: { id: number }) => r.id === req.id)).toMatchObject({ stale: true });
      const answer = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("stale_request");
      expect((await s.call("GET", `/api/runs/${runId}`)).body.pending_requests).toBe(0);
    });

    it("a restart while waiting keeps the request answerable and asks nobody twice", async () => {
      s = await startTestServer();
      const runId = await submit("asker", "t");
      const req = await pendingOf(runId);
      const dir = s.dir;
      await s.stop();
      s = await startTestServer(defaultToml(), dir);
      expect((await s.call("GET", `/api/requests/${req.id}`)).body).toMatchObject({
        pending: true,
      });
      await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
      await eventually(
        async () => (await statusOf(runId)) === "completed",
        "completed after restart",
      );
      expect((await s.call("GET", `/api/runs/${runId}/requests`)).body).toHaveLength(1);
      const events = (await s.call("GET", `/api/runs/${runId}/events?limit=1000`)).body;
      const names = events.map((e: { name: string }) => e.name);
      expect(names.filter((n: string) => n === "request.opened")).toHaveLength(1);
      expect(names).toContain("task.resumed");
    });
  });
});
