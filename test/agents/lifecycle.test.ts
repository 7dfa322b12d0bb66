// The agent process always ends with its attempt: the agent's own timeout (SIGKILL when SIGTERM
// is ignored, children included), a run cancel, a node timeout, a server stop; and failures of
// the transport or of the call itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, pidAlive, startAgentServer } from "../support/agent-server.ts";
import { eventually } from "../support/server-harness.ts";

let s: AgentServer;
beforeAll(async () => {
  s = await startAgentServer();
});
afterAll(async () => {
  await s?.close();
});

async function firstTask(run: string): Promise<number> {
  const started = await s.waitEvent("task.started", (e) => e.run_id === run);
  return started.task_id!;
}

const gone = (pid: number, what: string) => eventually(async () => !pidAlive(pid), what);

describe("the process ends with the attempt", () => {
  it("agent timeout: session cancelled, process group killed, retryable timeout", async () => {
    const script = {
      turns: [[{ pid: true }, { child: true }, { ignore_term: true }, { hang: true }]],
    };
    const run = await s.start("agentic", { script, timeout: 3 });
    const task = await firstTask(run);
    const pid = Number(await s.said(task, "pid"));
    const child = Number(await s.said(task, "child"));
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data).toMatchObject({ retryable: true });
    expect(failed.data.error).toMatch(/^AgentFailure: .*\(timeout\)$/);
    // the agent ignored SIGTERM: it was killed, and so was the process it started
    expect(pidAlive(pid)).toBe(false);
    await gone(child, "the agent's child to end");
    const stats = (await s.waitEvent("agent.stats", (e) => e.run_id === run)).data;
    expect(stats).toMatchObject({ status: "failed", reason: "timeout" });
  });

  it("a cancelled run kills its agent", async () => {
    const run = await s.start("agentic", { script: { turns: [[{ pid: true }, { hang: true }]] } });
    const pid = Number(await s.said(await firstTask(run), "pid"));
    expect(pidAlive(pid)).toBe(true);
    expect((await s.call("POST", `/api/runs/${run}/cancel`)).status).toBe(200);
    await gone(pid, "the agent to end after cancel");
    const stats = (await s.waitEvent("agent.stats", (e) => e.run_id === run)).data;
    expect(stats).toMatchObject({ status: "failed", reason: "cancelled" });
    const task = (await s.call("GET", `/api/runs/${run}`)).body.tasks[0];
    expect(task).toMatchObject({ status: "cancelled", stats });
  });

  it("moving the task kills its agent", async () => {
    const run = await s.start("agentic", { script: { turns: [[{ pid: true }, { hang: true }]] } });
    const task = await firstTask(run);
    const pid = Number(await s.said(task, "pid"));
    const moved = await s.call("POST", `/api/tasks/${task}/move`, { node: "work" });
    expect(moved.status).toBe(200);
    await gone(pid, "the agent to end after the move");
    const stats = await s.waitEvent("agent.stats", (e) => e.task_id === task);
    expect(stats.data).toMatchObject({ status: "failed", reason: "cancelled" });
    await s.call("POST", `/api/runs/${run}/cancel`);
  });

  it("an attempt that ends without awaiting its agent ends the agent too", async () => {
    const run = await s.start("overlap", { script: { turns: [[{ pid: true }, { hang: true }]] } });
    const pid = Number(await s.said(await firstTask(run), "pid"));
    const asked = await s.waitEvent("request.opened", (e) => e.run_id === run);
    await s.call("POST", `/api/requests/${asked.data.request_id}/answer`, { value: "yes" });
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data).toMatchObject({ retryable: false });
    expect(failed.data.error).toContain("one agent at a time");
    await gone(pid, "the first agent to end with its attempt");
    const stats = (await s.waitEvent("agent.stats", (e) => e.run_id === run)).data;
    expect(stats).toMatchObject({ status: "failed", reason: "cancelled" });
  });

  it("a node timeout kills its agent", async () => {
    const run = await s.start("hurried", { script: { turns: [[{ pid: true }, { hang: true }]] } });
    const pid = Number(await s.said(await firstTask(run), "pid"));
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data.error).toContain("NodeTimeout");
    await gone(pid, "the agent to end after the node timeout");
    const stats = (await s.waitEvent("agent.stats", (e) => e.run_id === run)).data;
    expect(stats).toMatchObject({ status: "failed", reason: "timeout" });
  });
});

describe("failures", () => {
  it("an agent that exits early is a transport failure naming its exit and stderr", async () => {
    const run = await s.start("agentic", { script: { turns: [[{ exit: 3 }]] } });
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data).toMatchObject({ retryable: true });
    expect(failed.data.error).toContain("exited with code 3");
    expect(failed.data.error).toContain("scripted agent exits on purpose");
    expect(failed.data.error).toContain("(transport)");
    const stats = (await s.waitEvent("agent.stats", (e) => e.run_id === run)).data;
    expect(stats).toMatchObject({ status: "failed", reason: "transport" });
  });

  it("a command that cannot start is a transport failure", async () => {
    const run = await s.start("agentic", { script: "hi", agent: "missing" });
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data.error).toContain("could not be started");
    expect(failed.data.error).toContain("(transport)");
  });

  it("an unknown agent dead-letters at once, naming the configured agents", async () => {
    const run = await s.start("agentic", { script: "hi", agent: "nobody" });
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data).toMatchObject({ retryable: false });
    expect(failed.data.error).toContain('unknown agent "nobody"');
    expect(failed.data.error).toContain("configured agents: default, plain, missing");
    expect(s.named("agent.stats", run)).toEqual([]);
  });

  it("an output model that is not a valid JSON Schema dead-letters at once", async () => {
    const run = await s.start("agentic", { script: "hi", output: { type: 12 } });
    const failed = await s.waitEvent("task.failed", (e) => e.run_id === run);
    expect(failed.data).toMatchObject({ retryable: false });
    expect(failed.data.error).toContain("output is not a valid JSON Schema");
  });

  it("an agent without MCP over HTTP gets no MCP server but still submits over HTTP", async () => {
    const run = await s.start("agentic", {
      script: { turns: [[{ env: true }, { submit: "ok" }]] },
      agent: "plain",
    });
    const done = await s.waitEvent("run.completed", (e) => e.run_id === run);
    expect(done.data.output).toBe("ok");
    const env = JSON.parse(await s.said(done.task_id!, "env"));
    expect(env).toMatchObject({ mcp_url: null, extra: "plain", url: s.url });
  });
});

it("a server stop ends the agent", async () => {
  const own = await startAgentServer();
  try {
    const run = await own.start("agentic", {
      script: { turns: [[{ pid: true }, { hang: true }]] },
    });
    const started = await own.waitEvent("task.started", (e) => e.run_id === run);
    const pid = Number(await own.said(started.task_id!, "pid"));
    await own.stop();
    await gone(pid, "the agent to end after the server stopped");
  } finally {
    await own.close();
  }
});
