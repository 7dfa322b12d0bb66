// session/request_permission: a person answers (the task waits without its pool slot), or the
// engine answers at once under the allow and deny policies; the agent's own timeout also ends a
// wait for a person.
import { afterEach, expect, it } from "vitest";
import { type AgentServer, pidAlive, startAgentServer } from "../support/agent-server.ts";

let s: AgentServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

const asking = {
  turns: [[{ pid: true }, { permission: "Delete build/" }, { submit: "$permission" }]],
};

it("asks a person: the task waits without its slot, and the answer reaches the agent", async () => {
  s = await startAgentServer({ capacity: 1 });
  const srv = s;
  const run = await srv.start("agentic", { script: asking });
  const opened = await srv.waitEvent("request.opened", (e) => e.run_id === run);
  expect(opened.data).toMatchObject({
    kind: "permission",
    mode: "options",
    node: "work",
    ordinal: null,
    source: "agent",
  });
  await srv.waitEvent("task.waiting", (e) => e.run_id === run);
  const id = opened.data.request_id as number;
  const view = (await srv.call("GET", `/api/requests/${id}`)).body;
  expect(view).toMatchObject({
    pending: true,
    options: [
      { option_id: "allow", name: "Allow", kind: "allow_once" },
      { option_id: "reject", name: "Reject", kind: "reject_once" },
    ],
    tool_call: { title: "Delete build/", kind: "execute", rawInput: { title: "Delete build/" } },
  });
  expect(view.prompt).toContain("Delete build/");
  // the only slot is free while the person thinks
  const other = await srv.start("quick", {}, "other");
  await srv.waitEvent("run.completed", (e) => e.run_id === other);
  const answered = await srv.call("POST", `/api/requests/${id}/answer`, { option_id: "reject" });
  expect(answered.status).toBe(200);
  const done = await srv.waitEvent("run.completed", (e) => e.run_id === run);
  expect(done.data.output).toEqual({ permission: "reject" });
  expect(srv.named("task.resumed", run)).toHaveLength(1);
  expect(srv.named("request.answered", run).map((e) => e.data)).toEqual([
    { author: "user", option_id: "reject", request_id: id },
  ]);
  const stats = (await srv.waitEvent("agent.stats", (e) => e.run_id === run)).data;
  expect(stats).toMatchObject({ status: "ok", denied_permissions: 1 });
});

it.each([
  ["allow", "allow", 0],
  ["deny", "reject", 1],
])("policy %s: the engine answers %s at once", async (permissions, chosen, denied) => {
  s = await startAgentServer();
  const srv = s;
  const run = await srv.start("agentic", { script: asking, permissions });
  const done = await srv.waitEvent("run.completed", (e) => e.run_id === run);
  expect(done.data.output).toEqual({ permission: chosen });
  expect(srv.named("task.waiting", run)).toEqual([]);
  const opened = srv.named("request.opened", run);
  expect(opened.map((e) => e.data)).toMatchObject([{ kind: "permission", source: "agent" }]);
  const id = opened[0].data.request_id;
  expect(srv.named("request.answered", run).map((e) => e.data)).toEqual([
    { author: "engine", option_id: chosen, request_id: id },
  ]);
  const view = (await srv.call("GET", `/api/requests/${id}`)).body;
  expect(view).toMatchObject({ answered_by: "engine", answer: chosen, pending: false });
  const stats = (await srv.waitEvent("agent.stats", (e) => e.run_id === run)).data;
  expect(stats.denied_permissions).toBe(denied);
});

it("the agent's timeout counts waiting time: the request goes stale and the process ends", async () => {
  s = await startAgentServer();
  const srv = s;
  const run = await srv.start("agentic", { script: asking, timeout: 3 });
  const opened = await srv.waitEvent("request.opened", (e) => e.run_id === run);
  const failed = await srv.waitEvent("task.failed", (e) => e.run_id === run);
  expect(failed.data).toMatchObject({ retryable: true });
  expect(failed.data.error).toContain("(timeout)");
  const view = (await srv.call("GET", `/api/requests/${opened.data.request_id}`)).body;
  expect(view).toMatchObject({ pending: false, stale: true, answered_by: null });
  const task = (await srv.call("GET", `/api/runs/${run}`)).body.tasks[0];
  expect(task.status).toBe("dead_letter");
  const pid = Number(await srv.said(task.id, "pid"));
  expect(pidAlive(pid)).toBe(false);
  const stats = (await srv.waitEvent("agent.stats", (e) => e.run_id === run)).data;
  expect(stats).toMatchObject({ status: "failed", reason: "timeout" });
});

it("an agent that dies while a person is asked fails the attempt; the request goes stale", async () => {
  s = await startAgentServer();
  const srv = s;
  const script = { turns: [[{ exit_after: 300 }, { permission: "Deploy" }]] };
  const run = await srv.start("agentic", { script });
  const opened = await srv.waitEvent("request.opened", (e) => e.run_id === run);
  const failed = await srv.waitEvent("task.failed", (e) => e.run_id === run);
  expect(failed.data.error).toContain("(transport)");
  const view = (await srv.call("GET", `/api/requests/${opened.data.request_id}`)).body;
  expect(view).toMatchObject({ pending: false, stale: true });
  const task = (await srv.call("GET", `/api/runs/${run}`)).body.tasks[0];
  expect(task.status).toBe("dead_letter");
});

it("after a restart, a permission the dead session asked goes stale and the attempt runs again", async () => {
  const first = await startAgentServer();
  const run = await first.start("agentic", { script: asking });
  const opened = await first.waitEvent("request.opened", (e) => e.run_id === run);
  const waiting = await first.waitEvent("task.waiting", (e) => e.run_id === run);
  await first.stop();
  // The session that asked is gone: nobody could read an answer to its question.
  s = await startAgentServer({ reuseDir: first.dir });
  const srv = s;
  const id = opened.data.request_id as number;
  const view = (await srv.call("GET", `/api/requests/${id}`)).body;
  expect(view).toMatchObject({ pending: false, stale: true, answered_by: null });
  const refused = await srv.call("POST", `/api/requests/${id}/answer`, { option_id: "allow" });
  expect(refused.body.code).toBe("stale_request");
  expect((await srv.call("GET", "/api/requests?pending=true")).body).toEqual([]);
  // The task runs again with a fresh session, which asks afresh.
  const again = await srv.waitEvent("request.opened", (e) => e.run_id === run);
  expect(again.task_id).toBe(waiting.task_id);
  expect(again.data.request_id).not.toBe(id);
  await srv.call("POST", `/api/requests/${again.data.request_id}/answer`, { option_id: "allow" });
  const done = await srv.waitEvent("run.completed", (e) => e.run_id === run);
  expect(done.data.output).toEqual({ permission: "allow" });
});
