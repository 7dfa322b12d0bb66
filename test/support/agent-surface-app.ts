// The agent surface served over real HTTP by a real engine (SQLite store): one workflow whose
// start attempt stays live until released or stopped, and tokens minted for it directly, so a
// test can act as the agent of that attempt.
import type { FastifyInstance } from "fastify";
import { workflow } from "../../src/authoring/index.ts";
import { issueTaskToken, type TaskRecord } from "../../src/engine/index.ts";
import { buildApp } from "../../src/http/app.ts";
import { createAuthGate } from "../../src/http/auth.ts";
import { AgentService } from "../../src/service/agent/agent-service.ts";
import { AgentSessions } from "../../src/service/agent/agent-sessions.ts";
import { gate, type Harness, startHarness } from "./engine-harness.ts";

export interface SurfaceApp {
  h: Harness;
  url: string;
  /** What the agent runner would declare (ask policy, output model) for an attempt. */
  sessions: AgentSessions;
  /** Starts a run and answers its live start attempt with a token for it. */
  liveTask(title?: string): Promise<{ task: TaskRecord; token: string; runId: string }>;
  call(
    method: string,
    path: string,
    token?: string,
    body?: unknown,
  ): Promise<{ status: number; body: any; headers: Headers }>;
  close(): Promise<void>;
}

export async function startSurfaceApp(): Promise<SurfaceApp> {
  const h = await startHarness();
  const sessions = new AgentSessions();
  const releases: Array<() => void> = [];
  const wf = workflow("agented");
  wf.node({ start: true }, async function work({ next }: any, input: unknown, ctx: any) {
    const g = gate();
    releases.push(g.open);
    await Promise.race([g.promise, new Promise((r) => ctx.signal.addEventListener("abort", r))]);
    return next(input);
  });
  wf.node(async function next() {
    return "end";
  });
  h.register(wf);
  const app: FastifyInstance = await buildApp({
    service: h.service,
    agent: new AgentService(h.engine, sessions),
    events: {
      bus: h.engine.bus,
      replay: (after, limit, run_id) => h.store.listEvents({ after, limit, run_id }),
      lastEventId: () => h.store.lastEventId(),
    },
    auth: createAuthGate({ host: "127.0.0.1", requireToken: false, tokenFile: `${h.dir}/token` }),
    bodyLimit: 1 << 20,
    sseReplayCap: 1000,
    version: "test",
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return {
    h,
    url,
    sessions,
    async liveTask(title = "t") {
      const { run_id } = await h.service.submitRun("agented", { title });
      const started = await h.waitEvent("task.started", (e) => e.run_id === run_id);
      const task = (await h.store.getTask(started.task_id!))!;
      return { task, token: await issueTaskToken(h.engine, task), runId: run_id };
    },
    async call(method, path, token, body) {
      const headers: Record<string, string> = {};
      if (token !== undefined) headers["x-service-token"] = token;
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(url + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: await res.json().catch(() => null), headers: res.headers };
    },
    async close() {
      for (const open of releases) open();
      await app.close();
      await h.close();
    },
  };
}
