// A task token dies with its agent session, and a SIGKILL ends every session. The attempt of an
// agent parked on a permission request is `waiting` when the server dies; it used to keep its
// token hash through recovery, so once the attempt was claimed again the dead session's token
// (still held by the orphaned agent) was accepted: it read the task, wrote its log and got its
// stale submission stored on the re-run attempt, where `ctx.agent` could take it as its result.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, post } from "../support/http-client.ts";
import { crash, killAll, serve, stop } from "../support/serve.ts";
import { agentConfig, pendingOf, somePort } from "../support/serve-folders.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
const children: ChildProcess[] = [];

// The body waits at a gate before it starts its agent: with the gate closed, the re-run attempt
// is claimed (in_progress) but has no agent of its own yet, which is when the old token matters.
const workflowFile = (gate: string) => `import { existsSync } from "node:fs";
import { workflow } from "yardmaster";
export const guarded = workflow("guarded");
guarded.node({ start: true }, async function consult({}, input: { title: string }, ctx) {
  while (!existsSync(${JSON.stringify(gate)})) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    await new Promise((r) => setTimeout(r, 20));
  }
  return ctx.agent({ prompt: input.title, permissions: "ask" });
});
`;

afterEach(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

describe("a SIGKILL ends every agent session", () => {
  it("the token of an agent parked on a permission is refused after recovery", {
    timeout: 60_000,
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), "ym-crash-token-"));
    const gate = join(dir, "gate");
    writeFileSync(join(dir, "guarded.ts"), workflowFile(gate));
    writeFileSync(join(dir, "yardmaster.toml"), agentConfig("guarded", somePort()));
    writeFileSync(gate, "");
    const first = await serve({ dir, children });
    const script = { turns: [[{ permission: "deploy" }, { submit: "$permission" }]] };
    const runs = "/api/workflows/guarded/runs";
    const { run_id } = (await call(first.url, runs, post({ title: JSON.stringify(script) }))).body;
    const asked = await eventually(() => pendingOf(first.url, run_id), "the permission", 20_000);
    const task = `/api/tasks/${asked.task_id}`;
    expect((await call(first.url, task)).body.status).toBe("waiting");
    const oldToken = readFileSync(join(dir, "token"), "utf8");
    const agentGroup = Number(readFileSync(join(dir, "agent.pid"), "utf8"));
    await crash(first);
    // The orphaned agent is ended, so the test alone holds the old token.
    process.kill(-agentGroup, "SIGKILL");
    rmSync(gate);

    const second = await serve({ dir, children });
    const claimed = async () => (await call(second.url, task)).body.status === "in_progress";
    await eventually(claimed, "the attempt claimed again", 20_000);
    expect(existsSync(gate)).toBe(false);
    const header = { "x-service-token": oldToken };
    const agentTask = `/api/agent/tasks/${asked.task_id}`;
    expect((await call(second.url, agentTask, { headers: header })).status).toBe(403);
    const late = await call(second.url, `${agentTask}/submit`, post({ stale: true }, header));
    expect(late.status).toBe(403);

    writeFileSync(gate, "");
    const again = await eventually(() => pendingOf(second.url, run_id), "a new permission", 20_000);
    await call(second.url, `/api/requests/${again.id}/answer`, post({ option_id: "allow" }));
    const run = await eventually(
      async () => {
        const { body } = await call(second.url, `/api/runs/${run_id}`);
        return body.status === "completed" && body;
      },
      "the run completed",
      20_000,
    );
    expect(run.output).toEqual({ permission: "allow" });
    const { submissions } = (await call(second.url, task)).body;
    expect(submissions.map((s: { payload: unknown }) => s.payload)).toEqual([
      { permission: "allow" },
    ]);
    await stop(second);
  });
});
