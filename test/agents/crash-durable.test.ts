// A finished `ctx.agent` call is durable, as an answered `ctx.ask` is. The body below has its
// agent draft something, then asks a person to approve that draft. The server is SIGKILLed
// while the person has not answered yet; after the restart the ask is still pending, and once
// it is answered the body runs again. It used to start the agent again: a second agent run, a
// second submission, and the run's output a draft the person never saw, with their approval of
// the first one attached to it (the crash audit saw exactly that with drafts that differ).
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { call, post } from "../support/http-client.ts";
import { crash, killAll, serve, stop } from "../support/serve.ts";
import { agentConfig, pendingOf, somePort } from "../support/serve-folders.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
const children: ChildProcess[] = [];

const WORKFLOW = `import { workflow } from "yardmaster";
export const vetted = workflow("vetted");
vetted.node({ start: true }, async function review({}, input: { title: string }, ctx) {
  const draft = await ctx.agent({ prompt: input.title });
  const verdict = await ctx.ask({ prompt: "Publish this draft?", options: ["yes", "no"] });
  return { draft, verdict };
});
`;

afterEach(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

describe("a finished agent call survives a SIGKILL", () => {
  it("the body run again after the restart gets the draft the person approved", {
    timeout: 60_000,
  }, async () => {
    dir = mkdtempSync(join(tmpdir(), "ym-crash-durable-"));
    writeFileSync(join(dir, "vetted.ts"), WORKFLOW);
    writeFileSync(join(dir, "yardmaster.toml"), agentConfig("vetted", somePort()));
    const first = await serve({ dir, children });
    const script = { turns: [[{ submit: { draft: "first" } }]] };
    const runs = "/api/workflows/vetted/runs";
    const { run_id } = (await call(first.url, runs, post({ title: JSON.stringify(script) }))).body;
    const asked = await eventually(() => pendingOf(first.url, run_id), "the ask", 20_000);
    const task = `/api/tasks/${asked.task_id}`;
    expect((await call(first.url, task)).body.status).toBe("waiting");
    await crash(first);

    const second = await serve({ dir, children });
    const still = await eventually(() => pendingOf(second.url, run_id), "the ask again", 20_000);
    expect(still.id).toBe(asked.id);
    const answer = post({ option_id: "yes" });
    expect((await call(second.url, `/api/requests/${asked.id}/answer`, answer)).status).toBe(200);
    const run = await eventually(
      async () => {
        const { body } = await call(second.url, `/api/runs/${run_id}`);
        return body.status === "completed" && body;
      },
      "the run completed",
      20_000,
    );
    expect(run.output).toEqual({ draft: { draft: "first" }, verdict: "yes" });
    // One agent ever ran for the attempt, and its submission is the only one.
    const { submissions } = (await call(second.url, task)).body;
    expect(submissions.map((s: { payload: unknown }) => s.payload)).toEqual([{ draft: "first" }]);
    expect(readFileSync(join(dir, "starts"), "utf8").trim().split("\n")).toHaveLength(1);
    await stop(second);
  });
});
