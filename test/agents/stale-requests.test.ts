// Requests for human input over a real server and a real ACP agent, against http-api.md's
// Request states: what the agent itself asked goes stale once its session is over, and what
// `pending` and `stale` say once the attempt that asked has ended.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, FLOWS, startAgentServer } from "../support/agent-server.ts";

let s: AgentServer;
beforeAll(async () => {
  s = await startAgentServer();
});
afterAll(async () => {
  await s?.close();
});

describe("a request the agent opened and nobody answered", () => {
  it("goes stale when the session ends: out of the inbox, no longer answerable", async () => {
    const script = { turns: [[{ ask: "Which colour?" }, { submit: { colour: "red" } }]] };
    const run = await s.start("agentic", { script, ask: "http" });
    await s.waitEvent("run.completed", (e) => e.run_id === run);
    const [request] = (await s.call("GET", `/api/runs/${run}/requests`)).body;
    expect(request).toMatchObject({ source: "agent", mode: "text", pending: false, stale: true });
    expect((await s.call("GET", `/api/runs/${run}`)).body.pending_requests).toBe(0);
    const inbox = (await s.call("GET", "/api/requests?pending=true")).body;
    expect(inbox.map((r: { id: number }) => r.id)).not.toContain(request.id);
    const answer = await s.call("POST", `/api/requests/${request.id}/answer`, { value: "blue" });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe("stale_request");
  });
});

describe("session/new", () => {
  it("carries the task's HTTP MCP server to an agent that states no MCP capabilities", async () => {
    const run = await s.start("agentic", {
      script: { turns: [[{ env: true }, { submit: "ok" }]] },
      agent: "bare",
    });
    const done = await s.waitEvent("run.completed", (e) => e.run_id === run);
    const env = JSON.parse(await s.said(done.task_id!, "env"));
    expect(env).toMatchObject({
      mcp_url: `${s.url}/mcp/agent`,
      mcp_type: "http",
      mcp_token_matches: true,
      task_id: String(done.task_id),
      token: true,
    });
  });
});

describe("a workflow removed while its agent waits on a person", () => {
  it("runs the attempt again once it is registered again, though the request went stale", async () => {
    const own = await startAgentServer();
    try {
      const script = { turns: [[{ permission: "Write file" }, { submit: "$permission" }]] };
      const run = await own.start("agentic", { script });
      const first = await own.waitEvent("task.waiting", (e) => e.run_id === run);
      const removed = await own.call("DELETE", "/api/workflows/agentic");
      expect(removed.body.task_ids).toEqual([first.task_id]);
      // the agent is gone, so nothing would consume an answer to what it asked
      await own.waitEvent("agent.stats", (e) => e.run_id === run);
      const [asked] = (await own.call("GET", `/api/runs/${run}/requests`)).body;
      expect(asked).toMatchObject({ stale: true, pending: false });
      const back = await own.call("POST", "/api/workflows", { target: `${FLOWS}:agentic` });
      expect(back.status).toBe(201);
      // the same attempt runs again from its payload, and its agent asks again
      const again = await own.waitEvent(
        "request.opened",
        (e) => e.run_id === run && e.data.request_id !== asked.id,
      );
      expect(again.task_id).toBe(first.task_id);
      await own.call("POST", `/api/requests/${again.data.request_id}/answer`, {
        option_id: "allow",
      });
      const done = await own.waitEvent("run.completed", (e) => e.run_id === run);
      expect(done.data.output).toEqual({ permission: "allow" });
    } finally {
      await own.close();
    }
  });
});

describe("once the attempt that asked has ended", () => {
  let s: AgentServer;
  beforeAll(async () => {
    s = await startAgentServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  describe("an agent's unanswered ask when its attempt ends", () => {
    it("goes stale: out of the inbox, no longer answerable, still in the run's history", async () => {
      const script = { turns: [[{ ask: "Which colour?" }, { submit: { answer: "blue" } }]] };
      const run = await s.start("agentic", { script, ask: "http" });
      await s.waitEvent("run.completed", (e) => e.run_id === run);
      const [req] = (await s.call("GET", `/api/runs/${run}/requests`)).body;
      expect(req).toMatchObject({ source: "agent", pending: false, stale: true, answer: null });
      expect((await s.call("GET", `/api/requests?pending=true&run=${run}`)).body).toEqual([]);
      expect((await s.call("GET", `/api/runs/${run}`)).body.pending_requests).toBe(0);
      const answer = await s.call("POST", `/api/requests/${req.id}/answer`, { value: "red" });
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe("stale_request");
    });
  });
});
