// Hostile input on the agent surface of a real `yardmaster serve` process (in its own process,
// so a stalled event loop shows as a health check that gets no answer): forms whose JSON Schema
// cannot be compiled or is built to backtrack, bodies nested past the depth limit, and
// /mcp/agent answering faults like the rest of the API. The agent is the scripted one, told to
// hang, so its attempt and task token stay live while the test speaks for it.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, post } from "../support/http-client.ts";
import { killAll, type Served, serve } from "../support/serve.ts";
import { agentConfig, answersHealth, somePort } from "../support/serve-folders.ts";
import { eventually } from "../support/wait.ts";

const WORKFLOWS = `import { workflow } from "yardmaster";
export const consult = workflow("consult");
consult.node({ start: true }, async function talk({}, input: { title: string }, ctx) {
  return ctx.agent({ prompt: input.title, ask: "http" });
});
export const badform = workflow("badform");
badform.node({ start: true }, async function form({}, _input: unknown, ctx) {
  return ctx.ask({ prompt: "Fill this in", schema: { type: 12 } });
});
`;

const children: ChildProcess[] = [];
let dir: string;
let served: Served;
let url: string;
let taskId: number;
let token: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-agent-input-"));
  writeFileSync(join(dir, "consult.ts"), WORKFLOWS);
  const config = `${agentConfig("consult", somePort())}[workflows.badform]\ntarget = "consult.ts:badform"\n`;
  writeFileSync(join(dir, "yardmaster.toml"), config);
  served = await serve({ dir, children });
  url = served.url;
  const script = JSON.stringify({ turns: [[{ hang: true }]] });
  const { run_id } = (await call(url, "/api/workflows/consult/runs", post({ title: script }))).body;
  await eventually(async () => existsSync(join(dir, "token")), "the agent's token", 30_000);
  token = readFileSync(join(dir, "token"), "utf8");
  taskId = (await call(url, `/api/runs/${run_id}`)).body.tasks[0].id;
}, 60_000);

afterAll(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const agentCall = (path: string, body: string, headers: Record<string, string> = {}) =>
  call(url, `/api/agent/tasks/${taskId}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-token": token, ...headers },
    body,
  });

const ask = (schema: unknown) =>
  agentCall("/ask", JSON.stringify({ prompt: "Fill this in", schema }));

// Bytes rather than a string: fetch would label a string body text/plain.
const mcp = (body: string, headers: Record<string, string> = {}) =>
  call(url, "/mcp/agent", {
    method: "POST",
    headers: { "x-service-token": token, ...headers },
    body: new TextEncoder().encode(body),
  });

describe("an agent's form", () => {
  it("is compiled when asked: a schema that cannot be is refused with 422", async () => {
    for (const schema of [{ type: 12 }, { pattern: "(" }, { pattern: "(?=lookahead)" }]) {
      const r = await ask(schema);
      expect(r.status, JSON.stringify(schema)).toBe(422);
      expect(r.body.code).toBe("validation");
      expect(r.body.errors[0]).toMatchObject({ loc: ["body", "schema"], type: "schema_invalid" });
    }
  });

  it("with a pattern built to backtrack is answered without stalling the server", {
    timeout: 60_000,
  }, async () => {
    const opened = await ask({ type: "string", pattern: "^(.|.)*Z$" });
    expect(opened.status).toBe(200);
    expect(opened.body.mode).toBe("form");
    const answering = call(url, `/api/requests/${opened.body.request_id}/answer`, {
      ...post({ value: "a".repeat(30) }),
      signal: AbortSignal.timeout(30_000),
    });
    answering.catch(() => {}); // Awaited below; a stalled server fails the health check first.
    expect(await answersHealth(url)).toBe(true);
    const answered = await answering;
    expect(answered.status).toBe(422);
    expect(answered.body.errors[0]).toMatchObject({ loc: ["body", "value"], type: "pattern" });
  });

  it("nested past the depth limit is refused with 422 before it is stored", async () => {
    let schema = '{"type":"object"}';
    for (let i = 0; i < 4_200; i++) schema = `{"properties":{"a":${schema}}}`;
    const r = await agentCall("/ask", `{"prompt":"Fill this in","schema":${schema}}`);
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ loc: ["body"], type: "json_too_deep" });
  });

  it("of ctx.ask that cannot be compiled dead-letters the attempt instead of opening a request", {
    timeout: 30_000,
  }, async () => {
    const runs = "/api/workflows/badform/runs";
    const { run_id } = (await call(url, runs, post({ title: "bad form" }))).body;
    const task = await eventually(async () => {
      const t = (await call(url, `/api/runs/${run_id}`)).body.tasks[0];
      return t?.status === "dead_letter" && t;
    }, "the attempt to dead-letter");
    expect(task.error).toContain("ctx.ask: schema");
    expect((await call(url, `/api/runs/${run_id}/requests`)).body).toEqual([]);
  });
});

describe("/mcp/agent", () => {
  const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });

  it("refuses a body nested past the depth limit with 422", async () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
    const r = await mcp(deep, { "content-type": "application/json" });
    expect(r.status).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ loc: ["body"], type: "json_too_deep" });
  });

  it("reads a body without a Content-Type as JSON, as every route does", async () => {
    const r = await mcp(listTools);
    expect(r.status).toBe(200);
    expect(r.body.result.tools.map((t: { name: string }) => t.name)).toContain("ask_operator");
  });

  it("answers a body that is not a JSON-RPC message with 422 validation", async () => {
    for (const body of ["{}", '{"jsonrpc":"2.0"}', "[]"]) {
      const r = await mcp(body, { "content-type": "application/json" });
      expect(r.status, body).toBe(422);
      expect(r.body).toMatchObject({ code: "validation", error: expect.any(String) });
      expect(r.body.errors[0].loc[0]).toBe("body");
    }
  });

  it("answers GET with 405 in the error shape, as MCP's transport asks", async () => {
    const r = await call(url, "/mcp/agent", { headers: { "x-service-token": token } });
    expect(r.status).toBe(405);
    expect(r.body).toMatchObject({ code: "not_found", error: expect.any(String) });
  });
});
