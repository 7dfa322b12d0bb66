// Requests for human input over a real server and a real ACP agent: what `pending` and `stale`
// say once the attempt that asked has ended (http-api.md "Request").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, startAgentServer } from "../support/agent-server.ts";

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
