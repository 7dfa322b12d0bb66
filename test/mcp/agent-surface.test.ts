// The agent surface over HTTP and MCP, against a real engine: task tokens, AgentTask, log,
// submissions against a declared output model, asks and answer polls.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SurfaceApp, startSurfaceApp } from "../support/agent-surface-app.ts";

let s: SurfaceApp;
let h: SurfaceApp["h"];
let url: string;
let sessions: SurfaceApp["sessions"];
let liveTask: SurfaceApp["liveTask"];
let call: SurfaceApp["call"];

beforeEach(async () => {
  s = await startSurfaceApp();
  ({ h, url, sessions, liveTask, call } = s);
});

afterEach(() => s.close());

describe("task tokens", () => {
  it("422 names the absent header; unknown, other and ended tokens share one 403", async () => {
    const a = await liveTask("a");
    const missing = await call("GET", `/api/agent/tasks/${a.task.id}`);
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].loc).toEqual(["header", "x-service-token"]);
    const unknown = await call("GET", `/api/agent/tasks/${a.task.id}`, "nope");
    const ok = await call("GET", `/api/agent/tasks/${a.task.id}`, a.token);
    expect(ok.status).toBe(200);
    const b = await liveTask("b");
    const other = await call("GET", `/api/agent/tasks/${b.task.id}`, a.token);
    expect([unknown.status, other.status]).toEqual([403, 403]);
    expect(other.body).toEqual(unknown.body);
    expect(other.body.code).toBe("forbidden");
    await h.service.cancelRun(a.runId);
    const ended = await call("GET", `/api/agent/tasks/${a.task.id}`, a.token);
    expect(ended.status).toBe(403);
    expect(ended.body).toEqual(unknown.body);
    // the token never shows in operator views or events
    const detail = JSON.stringify(await h.service.getRun(a.runId));
    expect(detail).not.toContain(a.token);
    expect(JSON.stringify(h.events)).not.toContain(a.token);
  });
});

describe("agent endpoints", () => {
  it("AgentTask, log, and submissions against the declared output model", async () => {
    const { task, token, runId } = await liveTask("write it");
    await h.service.appendRunLog(runId, { text: "operator note" });
    const plain = await call("GET", `/api/agent/tasks/${task.id}`, token);
    expect(plain.body).toMatchObject({
      task_id: task.id,
      run_id: runId,
      workflow: "agented",
      node: "work",
      attempt: 1,
      title: "write it",
      description: "",
      input: { title: "write it", description: "" },
    });
    expect(plain.body.output_schema ?? null).toBeNull();
    const schema = {
      type: "object",
      required: ["answer"],
      properties: { answer: { type: "string" } },
    };
    sessions.open(task.id, "never", schema);
    const typed = await call("GET", `/api/agent/tasks/${task.id}`, token);
    expect(typed.body.output_schema).toEqual(schema);
    const log = await call("POST", `/api/agent/tasks/${task.id}/log`, token, { text: "working" });
    expect(typeof log.body.log_id).toBe("number");
    const entry = (await h.service.runLog(runId)).at(-1)!;
    expect(entry).toMatchObject({
      author: "agent",
      node: "work",
      task_id: task.id,
      text: "working",
    });
    const bad = await call("POST", `/api/agent/tasks/${task.id}/submit`, token, { answer: 42 });
    expect(bad.status).toBe(422);
    expect(bad.body.schema).toEqual(schema);
    expect(bad.body.errors[0]).toMatchObject({ loc: ["body", "answer"], type: "type" });
    const rejected = h.named("submission.rejected", runId)[0];
    expect(rejected.data).toMatchObject({ node: "work", errors: bad.body.errors });
    await call("POST", `/api/agent/tasks/${task.id}/submit`, token, { answer: "one" });
    const good = await call("POST", `/api/agent/tasks/${task.id}/submit`, token, { answer: "two" });
    expect(good.body).toEqual({ ok: true });
    const detail = await h.service.getTask(task.id);
    expect(detail.submissions.map((s) => s.payload)).toEqual([
      { answer: "one" },
      { answer: "two" },
    ]);
    expect(h.named("submission.accepted", runId).map((e) => e.data.node)).toEqual(["work", "work"]);
    // a submission never routes work
    expect((await h.service.getRun(runId)).tasks).toHaveLength(1);
  });

  it("ask is refused without ask policy http; polls wait for the answer", async () => {
    const { task, token } = await liveTask();
    const refused = await call("POST", `/api/agent/tasks/${task.id}/ask`, token, { prompt: "ok?" });
    expect(refused.status).toBe(403);
    sessions.open(task.id, "http", null);
    const asked = await call("POST", `/api/agent/tasks/${task.id}/ask`, token, {
      prompt: "pick",
      options: ["a", { option_id: "b" }],
    });
    expect(asked.body.mode).toBe("options");
    const text = await call("POST", `/api/agent/tasks/${task.id}/ask`, token, { prompt: "why?" });
    expect(text.body.mode).toBe("text");
    const form = await call("POST", `/api/agent/tasks/${task.id}/ask`, token, {
      prompt: "fill",
      schema: { type: "object" },
    });
    expect(form.body.mode).toBe("form");
    const req = await h.service.getRequest(asked.body.request_id);
    expect(req).toMatchObject({
      source: "agent",
      options: [
        { option_id: "a", name: "a" },
        { option_id: "b", name: "b" },
      ],
    });
    expect(
      h.named("request.opened").find((e) => e.data.request_id === req.id)?.data.ordinal,
    ).toBeNull();
    const early = await call("GET", `/api/agent/tasks/${task.id}/requests/${req.id}?wait=0`, token);
    expect(early.body).toEqual({ request_id: req.id, answered: false });
    const polling = call("GET", `/api/agent/tasks/${task.id}/requests/${req.id}?wait=500`, token);
    await new Promise((r) => setTimeout(r, 30));
    await h.service.answerRequest(req.id, { option_id: "b" });
    const answered = await polling;
    expect(answered.body).toEqual({
      request_id: req.id,
      answered: true,
      answer: "b",
      answered_by: "user",
    });
    const other = await liveTask("other");
    const foreign = await call(
      "GET",
      `/api/agent/tasks/${other.task.id}/requests/${req.id}`,
      other.token,
    );
    expect(foreign.status).toBe(404);
  });
});

describe("answer poll wait", () => {
  it("reads wait as any JSON-style number (exponent, leading dot, sign) and clamps it", async () => {
    const { task, token } = await liveTask();
    sessions.open(task.id, "http", null);
    const asked = await call("POST", `/api/agent/tasks/${task.id}/ask`, token, { prompt: "ok?" });
    const poll = (wait: string) =>
      call(
        "GET",
        `/api/agent/tasks/${task.id}/requests/${asked.body.request_id}?wait=${wait}`,
        token,
      );
    for (const wait of ["1e-2", ".01", "+0", "-1E3", "0.0"]) {
      const res = await poll(wait);
      expect([wait, res.status, res.body.answered]).toEqual([wait, 200, false]);
    }
    // clamped to 120 s, not refused: the poll still ends as soon as the answer is recorded
    const polling = poll("1e9");
    await new Promise((r) => setTimeout(r, 30));
    await h.service.answerRequest(asked.body.request_id, { value: "yes" });
    expect((await polling).body).toMatchObject({ answered: true, answer: "yes" });
    expect((await poll("ten")).status).toBe(422);
  });
});

describe("MCP server", () => {
  it("offers the task's tools bound to its token", async () => {
    const { task, token, runId } = await liveTask("mcp");
    const client = new Client({ name: "test", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${url}/mcp/agent`), {
        requestInit: { headers: { "X-Service-Token": token } },
      }),
    );
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(["append_log", "get_task", "submit_result"]);
    const got = await client.callTool({ name: "get_task", arguments: {} });
    expect(JSON.parse((got.content as Array<{ text: string }>)[0].text)).toMatchObject({
      task_id: task.id,
    });
    await client.callTool({ name: "submit_result", arguments: { result: { done: true } } });
    expect((await h.service.getTask(task.id)).submissions[0].payload).toEqual({ done: true });
    await client.callTool({ name: "append_log", arguments: { text: "via mcp" } });
    expect((await h.service.runLog(runId)).at(-1)).toMatchObject({
      author: "agent",
      text: "via mcp",
    });
    await client.close();
    const res = await fetch(`${url}/mcp/agent`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-service-token": "bad",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(403);
  });
});
