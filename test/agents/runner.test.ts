// ctx.agent over a real server and a real ACP agent process: transcript and task.stream, stats,
// submissions and repair turns, permission policies answered by the engine, option errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AgentServer, pidAlive, startAgentServer } from "../support/agent-server.ts";

let s: AgentServer;
beforeAll(async () => {
  s = await startAgentServer();
});
afterAll(async () => {
  await s?.close();
});

const ended = (run: string) =>
  s
    .waitEvent("run.completed", (e) => e.run_id === run)
    .catch(async () => {
      throw new Error(`run did not complete: ${JSON.stringify(s.named("task.failed", run))}`);
    });
const failedTask = (run: string) => s.waitEvent("task.failed", (e) => e.run_id === run);
const statsOf = (run: string) => s.waitEvent("agent.stats", (e) => e.run_id === run);

describe("a session that submits", () => {
  const tools = Array.from({ length: 20 }, (_, i) => ({
    tool: { id: `t${i}`, title: `Read f${i}`, kind: "read", input: { path: `f${i}` } },
  }));
  const script = {
    turns: [
      [
        { pid: true },
        { thought: "Let me " },
        { thought: "look." },
        { text: "Hello " },
        { text: "world\n" },
        { plan: ["read", "answer"] },
        { env: true },
        ...tools,
        { usage: { input: 100, output: 20 } },
        { cost: 0.25 },
        { submit: { answer: "first" } },
        { submit: { answer: "42" } },
      ],
    ],
  };

  it("resolves with the latest submission; the transcript is stored and announced", async () => {
    const run = await s.start("agentic", { script });
    expect((await ended(run)).data.output).toEqual({ answer: "42" });
    const task = (await s.call("GET", `/api/runs/${run}`)).body.tasks[0];
    const chunks = await s.transcript(task.id);
    expect(chunks.map((c) => c.seq)).toEqual(chunks.map((_, i) => i + 1));
    expect(chunks[0]).toMatchObject({ kind: "text" });
    const said = (kind: string) =>
      chunks
        .filter((c) => c.kind === kind)
        .map((c) => c.text)
        .join("");
    expect(said("thought")).toBe("Let me look.");
    expect(said("text")).toContain("Hello world\n");
    expect(chunks.find((c) => c.kind === "notice")?.text).toBe(
      "Plan:\n1. [pending] read\n2. [pending] answer",
    );
    expect(chunks.filter((c) => c.kind === "tool_call")).toHaveLength(20);
    expect(chunks.find((c) => c.kind === "tool_call")?.text).toBe('Read f0 [read] {"path":"f0"}');
    expect(chunks.find((c) => c.kind === "tool_result")?.text).toBe("Read f0 completed: done");
    // task.stream: ephemeral, contiguous ranges covering every stored chunk, never stored
    const streams = s.named("task.stream", run);
    expect(streams.length).toBeGreaterThan(1);
    expect(streams.every((e) => e.id === null && e.task_id === task.id)).toBe(true);
    const ranges = streams.map((e) => [e.data.seq_from, e.data.seq_to] as number[]);
    expect(ranges[0][0]).toBe(1);
    for (let i = 1; i < ranges.length; i++) expect(ranges[i][0]).toBe(ranges[i - 1][1] + 1);
    expect(ranges.at(-1)![1]).toBe(chunks.length);
    const stored = (await s.call("GET", `/api/runs/${run}/events?limit=1000`)).body;
    expect(stored.map((e: { name: string }) => e.name)).not.toContain("task.stream");
    // the agent was given the task's URL, id and token, and the MCP server with the same token
    const env = JSON.parse(await s.said(task.id, "env"));
    expect(env).toMatchObject({
      url: s.url,
      task_id: String(task.id),
      token: true,
      mcp_type: "http",
      mcp_url: `${s.url}/mcp/agent`,
      mcp_token_matches: true,
    });
    expect(pidAlive(Number(await s.said(task.id, "pid")))).toBe(false);
  });

  it("records AgentStats: event, stats log entry, TaskView.stats, RunDetail.stats", async () => {
    const run = await s.start("agentic", { script });
    await ended(run);
    const stats = (await statsOf(run)).data;
    expect(stats).toMatchObject({
      node: "work",
      attempt: 1,
      status: "ok",
      input_tokens: 100,
      output_tokens: 20,
      total_tokens: 120,
      cost: 0.25,
      tool_calls: 20,
      repair_turns: 0,
      denied_permissions: 0,
      model: "scripted-1",
    });
    expect(stats.session_id).toMatch(/^scripted-\d+$/);
    expect(stats.duration_s).toBeGreaterThan(0);
    expect(stats).not.toHaveProperty("reason");
    const detail = (await s.call("GET", `/api/runs/${run}`)).body;
    expect(detail.tasks[0].stats).toEqual(stats);
    expect(detail.stats).toEqual({
      cost: 0.25,
      duration_s: stats.duration_s,
      input_tokens: 100,
      output_tokens: 20,
      tool_calls: 20,
      total_tokens: 120,
    });
    const log = (await s.call("GET", `/api/runs/${run}/log`)).body;
    const entry = log.find((e: { kind?: string }) => e.kind === "stats");
    expect(entry).toMatchObject({ author: "engine", node: "work", task_id: detail.tasks[0].id });
    expect(entry.text).toContain("Agent default on work (attempt 1): ok");
    expect(JSON.parse(entry.text.split("\n").at(-1))).toEqual(stats);
  });

  it("adds up two sessions of one attempt on the task, with one agent.stats each", async () => {
    const small = {
      turns: [[{ tool: { title: "x" } }, { usage: { input: 3, output: 1 } }, { submit: 1 }]],
    };
    const run = await s.start("twice", { script: small });
    expect((await ended(run)).data.output).toEqual([1, 1]);
    expect(s.named("agent.stats", run)).toHaveLength(2);
    const detail = (await s.call("GET", `/api/runs/${run}`)).body;
    expect(detail.tasks[0].stats).toMatchObject({
      tool_calls: 2,
      total_tokens: 8,
      input_tokens: 6,
    });
    expect(detail.stats).toMatchObject({ tool_calls: 2, total_tokens: 8 });
  });
});

describe("submissions and repair turns", () => {
  it("repairs after a refused submission (reason rejected) and accepts the fix", async () => {
    const script = { turns: [[{ submit: { answer: 3 } }], [{ submit: { answer: "fixed" } }]] };
    const run = await s.start("agentic", { script, zod: true });
    expect((await ended(run)).data.output).toEqual({ answer: "fixed" });
    expect(s.named("submission.rejected", run)).toHaveLength(1);
    expect(s.named("submission.repair", run).map((e) => e.data)).toEqual([
      { node: "work", reason: "rejected", turn: 1 },
    ]);
    expect((await statsOf(run)).data).toMatchObject({ status: "ok", repair_turns: 1 });
  });

  it("takes submissions through the session's MCP server (submit_result) too", async () => {
    const script = {
      turns: [[{ submit_via_mcp: { answer: 1 } }], [{ submit_via_mcp: { answer: "via mcp" } }]],
    };
    const run = await s.start("agentic", { script, zod: true });
    expect((await ended(run)).data.output).toEqual({ answer: "via mcp" });
    expect(s.named("submission.rejected", run)).toHaveLength(1);
    expect(s.named("submission.repair", run).map((e) => e.data.reason)).toEqual(["rejected"]);
  });

  it("fails with a retryable no_submission after the repair turns run out", async () => {
    const run = await s.start("agentic", { script: { turns: [[{ text: "nothing" }]] }, repair: 2 });
    const failed = await failedTask(run);
    expect(failed.data).toMatchObject({ retryable: true, will_retry: false });
    expect(failed.data.error).toMatch(/^AgentFailure: .*no_submission/);
    expect(s.named("submission.repair", run).map((e) => e.data)).toEqual([
      { node: "work", reason: "nothing_submitted", turn: 1 },
      { node: "work", reason: "nothing_submitted", turn: 2 },
    ]);
    expect((await statsOf(run)).data).toMatchObject({
      status: "failed",
      reason: "no_submission",
      repair_turns: 2,
    });
  });

  it.each([
    ["refusal", "refusal"],
    ["max_tokens", "truncated"],
    ["cancelled", "cancelled"],
  ])("a turn that stops with %s fails with reason %s", async (stop, reason) => {
    const run = await s.start("agentic", { script: { turns: [[{ stop }]] } });
    expect((await failedTask(run)).data.error).toContain(`(${reason})`);
    expect((await statsOf(run)).data).toMatchObject({ status: "failed", reason });
    expect(s.named("submission.repair", run)).toEqual([]);
  });
});
