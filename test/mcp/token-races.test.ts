// An agent's call racing the end of its attempt. The token is checked when the call arrives,
// but the attempt can end (operator cancel, run delete) before the call's write commits. The
// write must then be refused with the contract's 403 (the token died with the attempt), not
// acknowledged after `run.cancelled`, nor fail on the deleted run's rows (a 500).
//
// Deterministic: the operation is issued first and the agent call right after, in the same
// turn, so both land in one batch with the operation's commit first and the agent call's token
// check (a read) done before it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentService } from "../../src/service/agent/agent-service.ts";
import { type SurfaceApp, startSurfaceApp } from "../support/agent-surface-app.ts";

let s: SurfaceApp;
let agent: AgentService;
beforeEach(async () => {
  s = await startSurfaceApp();
  agent = new AgentService(s.h.engine, s.sessions);
});
afterEach(async () => {
  await s?.close();
});

const refused = { code: "forbidden" };

describe("an agent call racing the end of its attempt", () => {
  it("a submit behind a cancel is refused, and nothing is stored", async () => {
    const { task, token, runId } = await s.liveTask();
    const cancelled = s.h.service.cancelRun(runId);
    const submitted = agent.submit(task.id, token, { late: true });
    await cancelled;
    await expect(submitted).rejects.toMatchObject(refused);
    expect((await s.h.service.getTask(task.id)).submissions).toEqual([]);
    expect(s.h.named("submission.accepted", runId)).toEqual([]);
  });

  it("a submit, a log and an ask behind a run delete are refused, not internal errors", async () => {
    const { task, token, runId } = await s.liveTask();
    s.sessions.open(task.id, "http", null);
    const deleted = s.h.service.deleteRun(runId);
    const calls = [
      agent.submit(task.id, token, { late: true }),
      agent.appendLog(task.id, token, "too late"),
      agent.ask(task.id, token, { prompt: "still there?" }),
    ];
    await deleted;
    for (const result of await Promise.allSettled(calls)) {
      expect(result).toMatchObject({ status: "rejected", reason: refused });
    }
  });

  it("an ask behind a cancel opens no request the inbox would show as pending", async () => {
    const { task, token, runId } = await s.liveTask();
    s.sessions.open(task.id, "http", null);
    const cancelled = s.h.service.cancelRun(runId);
    const asked = agent.ask(task.id, token, { prompt: "still there?" });
    await cancelled;
    await expect(asked).rejects.toMatchObject(refused);
    expect(await s.h.service.listRequests({ pending: true })).toEqual([]);
  });

  it("the same calls on a live attempt still go through", async () => {
    const { task, token } = await s.liveTask();
    s.sessions.open(task.id, "http", null);
    await expect(agent.submit(task.id, token, { v: 1 })).resolves.toEqual({ ok: true });
    await expect(agent.appendLog(task.id, token, "note")).resolves.toHaveProperty("log_id");
    await expect(agent.ask(task.id, token, { prompt: "ok?" })).resolves.toHaveProperty(
      "request_id",
    );
  });
});
