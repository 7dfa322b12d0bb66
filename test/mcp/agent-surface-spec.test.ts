// The agent surface read sentence by sentence against http-api.md ("Authentication" point 4,
// "Agent surface", POST /mcp/agent), over real HTTP with the official MCP client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SurfaceApp, startSurfaceApp } from "../support/agent-surface-app.ts";

let s: SurfaceApp;

beforeEach(async () => {
  s = await startSurfaceApp();
});

afterEach(() => s.close());

const ANSWER_2020 = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  required: ["answer"],
  properties: { answer: { type: "string" } },
};

async function mcpClient(token: string): Promise<Client> {
  const client = new Client({ name: "contract", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp/agent`), {
      requestInit: { headers: { "X-Service-Token": token } },
    }),
  );
  return client;
}

describe("the task token comes before the body", () => {
  it("a refused token is 403 and an absent one 422 naming the header, whatever the body", async () => {
    const a = await s.liveTask("a");
    const b = await s.liveTask("b");
    const unknown = await s.call("POST", `/api/agent/tasks/${a.task.id}/log`, "nope", {});
    const other = await s.call("POST", `/api/agent/tasks/${a.task.id}/ask`, b.token, {});
    // An empty value is a token presented (and refused), not an absent header.
    const blank = await s.call("POST", `/api/agent/tasks/${a.task.id}/log`, "", {});
    expect([unknown.status, other.status, blank.status]).toEqual([403, 403, 403]);
    expect(other.body).toEqual(unknown.body);
    expect(blank.body).toEqual(unknown.body);
    const absent = await s.call("POST", `/api/agent/tasks/${a.task.id}/log`, undefined, {});
    expect(absent.status).toBe(422);
    expect(absent.body.errors).toEqual([
      { loc: ["header", "x-service-token"], msg: "Field required", type: "missing" },
    ]);
    // with a good token the body is judged as usual
    const empty = await s.call("POST", `/api/agent/tasks/${a.task.id}/log`, a.token, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].loc).toEqual(["body", "text"]);
  });
});

describe("submissions against a declared output model", () => {
  it("name each missing field, and a 2020-12 schema (zod's default) is read as such", async () => {
    const { task, token, runId } = await s.liveTask();
    s.sessions.open(task.id, "never", ANSWER_2020);
    const bad = await s.call("POST", `/api/agent/tasks/${task.id}/submit`, token, {});
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: "validation", schema: ANSWER_2020 });
    expect(bad.body.errors).toEqual([
      { loc: ["body", "answer"], msg: "Field required", type: "missing" },
    ]);
    const rejected = s.h.named("submission.rejected", runId).at(-1)!;
    expect(rejected.data.errors).toEqual(bad.body.errors);
    const good = await s.call("POST", `/api/agent/tasks/${task.id}/submit`, token, {
      answer: "yes",
    });
    expect(good.body).toEqual({ ok: true });
    expect((await s.h.service.getTask(task.id)).submissions.map((x) => x.payload)).toEqual([
      { answer: "yes" },
    ]);
  });
});

describe("POST .../ask", () => {
  it("reads the mode from what was sent; an empty option list offers nothing, so it is text", async () => {
    const { task, token } = await s.liveTask();
    s.sessions.open(task.id, "http", null);
    const ask = (body: unknown) =>
      s.call("POST", `/api/agent/tasks/${task.id}/ask`, token, body).then((r) => r.body);
    const named = await ask({ prompt: "pick", options: [{ option_id: "a", name: null }] });
    expect(named.mode).toBe("options");
    expect((await s.h.service.getRequest(named.request_id)).options).toEqual([
      { option_id: "a", name: "a", kind: null },
    ]);
    const empty = await ask({ prompt: "say", options: [] });
    expect(empty.mode).toBe("text");
    expect((await s.h.service.getRequest(empty.request_id)).options ?? null).toBeNull();
    expect((await ask({ prompt: "say", options: null, schema: null })).mode).toBe("text");
  });
});

describe("POST /mcp/agent", () => {
  it("answers GET and DELETE with 405 (no server stream), after judging the token", async () => {
    const { token } = await s.liveTask();
    const get = await s.call("GET", "/mcp/agent", token);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect((await s.call("DELETE", "/mcp/agent", token)).status).toBe(405);
    expect((await s.call("GET", "/mcp/agent", "nope")).status).toBe(403);
    expect((await s.call("GET", "/mcp/agent")).status).toBe(422);
  });

  it("answers in MCP's shapes; a refused submission carries errors and schema", async () => {
    const { task, token } = await s.liveTask();
    s.sessions.open(task.id, "http", ANSWER_2020);
    const client = await mcpClient(token);
    const errors: Error[] = [];
    client.onerror = (err) => errors.push(err);
    const got = await client.callTool({ name: "get_task", arguments: {} });
    expect(got.structuredContent).toMatchObject({ task_id: task.id, output_schema: ANSWER_2020 });
    const refused = await client.callTool({ name: "submit_result", arguments: { result: {} } });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: "validation", schema: ANSWER_2020 });
    const text = (refused.content as Array<{ text: string }>)[0].text;
    expect(JSON.parse(text).errors).toEqual([
      { loc: ["body", "answer"], msg: "Field required", type: "missing" },
    ]);
    const asked = await client.callTool({
      name: "ask_operator",
      arguments: { prompt: "go?", options: ["no", { option_id: "yes", kind: "allow_once" }] },
    });
    const id = (asked.structuredContent as { request_id: number }).request_id;
    expect((await s.h.service.getRequest(id)).options).toEqual([
      { option_id: "no", name: "no", kind: null },
      { option_id: "yes", name: "yes", kind: "allow_once" },
    ]);
    await client.close();
    // the client's attempt at a server stream met 405, which it takes as "none offered"
    expect(errors).toEqual([]);
  });

  it("answers plain JSON-RPC in one JSON response, whatever Accept the client sent", async () => {
    const { token } = await s.liveTask();
    const list = async (accept?: string) => {
      const res = await fetch(`${s.url}/mcp/agent`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-service-token": token,
          ...(accept ? { accept } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" }),
      });
      expect(res.headers.get("content-type")).toContain("application/json");
      return { status: res.status, body: (await res.json()) as any };
    };
    for (const accept of [undefined, "application/json", "application/json, text/event-stream"]) {
      const { status, body } = await list(accept);
      expect(status).toBe(200);
      expect(body.id).toBe(7);
      expect(body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
        "append_log",
        "get_task",
        "submit_result",
      ]);
    }
  });
});
