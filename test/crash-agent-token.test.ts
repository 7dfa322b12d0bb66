// A task token dies with its agent session, and a SIGKILL ends every session. The attempt of an
// agent parked on a permission request is `waiting` when the server dies; it used to keep its
// token hash through recovery, so once the attempt was claimed again the dead session's token
// (still held by the orphaned agent) was accepted: it read the task, wrote its log and got its
// stale submission stored on the re-run attempt, where `ctx.agent` could take it as its result.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { SCRIPTED_AGENT } from "./support/agent-server.ts";
import { eventually } from "./support/server-harness.ts";

const BIN = resolve("bin/yardmaster.mjs");
let dir: string;
const children: ChildProcess[] = [];

// The body waits at a gate before it starts its agent: with the gate closed, the re-run attempt
// is claimed (in_progress) but has no agent of its own yet, which is when the old token matters.
const WORKFLOW = `import { existsSync } from "node:fs";
import { workflow } from "yardmaster";
export const guarded = workflow("guarded");
guarded.node({ start: true }, async function consult({}, input: { title: string }, ctx) {
  while (!existsSync(${JSON.stringify("GATE")})) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    await new Promise((r) => setTimeout(r, 20));
  }
  return ctx.agent({ prompt: input.title, permissions: "ask" });
});
`;

// The wrapper leaves the token and the agent's pid (exec keeps it) where the test can read them.
const config = (port: number) => `[server]
host = "127.0.0.1"
port = ${port}
[pools.default]
capacity = 2
[workflows.guarded]
target = "guarded.ts:guarded"
[agents.default]
command = ["sh", "-c", "printf %s \\"$YARDMASTER_TOKEN\\" > token; echo $$ > agent.pid; exec node ${SCRIPTED_AGENT}"]
`;

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  rmSync(dir, { recursive: true, force: true });
});

async function serve(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [BIN, "serve"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once("line", done);
    child.once("exit", () => fail(new Error("yardmaster serve exited before it was ready")));
  });
  return { url: /listening on (\S+)/.exec(line)![1], child };
}

async function call(
  url: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, init);
  return { status: res.status, body: await res.json().catch(() => null) };
}

const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

describe("a SIGKILL ends every agent session", () => {
  it("the token of an agent parked on a permission is refused after recovery", {
    timeout: 60_000,
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), "ym-crash-token-"));
    writeFileSync(
      join(dir, "guarded.ts"),
      WORKFLOW.replace('"GATE"', JSON.stringify(join(dir, "gate"))),
    );
    // A fixed port: the orphaned agent's URL would reach the restarted server too.
    const port = 20000 + Math.floor(Math.random() * 20000);
    writeFileSync(join(dir, "yardmaster.toml"), config(port));
    writeFileSync(join(dir, "gate"), "");
    const first = await serve();
    const script = { turns: [[{ permission: "deploy" }, { submit: "$permission" }]] };
    const { body: created } = await call(
      first.url,
      "/api/workflows/guarded/runs",
      post({ title: JSON.stringify(script) }),
    );
    const request = await eventually(
      async () => {
        const { body } = await call(first.url, `/api/requests?pending=true&run=${created.run_id}`);
        return body[0];
      },
      "the permission request",
      20_000,
    );
    expect((await call(first.url, `/api/tasks/${request.task_id}`)).body.status).toBe("waiting");
    const oldToken = readFileSync(join(dir, "token"), "utf8");
    const agentPid = Number(readFileSync(join(dir, "agent.pid"), "utf8"));
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    // The orphaned agent is ended, so the test alone holds the old token.
    process.kill(-agentPid, "SIGKILL");
    rmSync(join(dir, "gate"));

    const second = await serve();
    const task = `/api/tasks/${request.task_id}`;
    const agentTask = `/api/agent/tasks/${request.task_id}`;
    await eventually(
      async () => (await call(second.url, task)).body.status === "in_progress",
      "re-claim",
    );
    expect(existsSync(join(dir, "gate"))).toBe(false);
    const header = { "x-service-token": oldToken };
    expect((await call(second.url, agentTask, { headers: header })).status).toBe(403);
    expect(
      (await call(second.url, `${agentTask}/submit`, post({ stale: true }, header))).status,
    ).toBe(403);

    writeFileSync(join(dir, "gate"), "");
    const again = await eventually(
      async () => {
        const { body } = await call(second.url, `/api/requests?pending=true&run=${created.run_id}`);
        return body[0];
      },
      "the new agent's permission request",
      20_000,
    );
    await call(second.url, `/api/requests/${again.id}/answer`, post({ option_id: "allow" }));
    const run = await eventually(
      async () => {
        const { body } = await call(second.url, `/api/runs/${created.run_id}`);
        return body.status === "completed" && body;
      },
      "the run completed",
      20_000,
    );
    expect(run.output).toEqual({ permission: "allow" });
    const detail = (await call(second.url, task)).body;
    expect(detail.submissions.map((s: { payload: unknown }) => s.payload)).toEqual([
      { permission: "allow" },
    ]);
    second.child.kill("SIGTERM");
    await new Promise((r) => second.child.once("exit", r));
  });
});
