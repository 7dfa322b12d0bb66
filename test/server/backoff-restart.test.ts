// Retry backoff on a real `yardmaster serve`, in real time: a node whose first attempt fails
// retries after its backoff, not before, and the wait survives a kill -9 in the middle of it
// (the restarted server claims the retry when it is due).
import type { ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { call, post } from "../support/http-client.ts";
import { crash, killAll, type Served, serve, serverDir } from "../support/serve.ts";
import { eventually } from "../support/wait.ts";

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterAll(() => {
  killAll(children);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// The first attempt leaves a mark and fails; later ones (in any process) succeed.
const FLAKY = `import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { workflow } from "yardmaster";
export const flaky = workflow("flaky");
flaky.node(
  { start: true, retries: 2, backoff: { initial: 2, jitter: false } },
  async function once({}: any) {
    const mark = join(process.cwd(), "failed-once");
    if (!existsSync(mark)) {
      writeFileSync(mark, "1");
      throw new Error("first attempt fails");
    }
    return "ok";
  },
);
`;

const TOML = `[server]
host = "127.0.0.1"
port = 0
[workflows.flaky]
target = "flaky.ts:flaky"
`;

async function taskOf(url: string, runId: string, attempt: number) {
  const run = (await call(url, `/api/runs/${runId}`)).body;
  return run.tasks.find((t: { attempt: number }) => t.attempt === attempt);
}

describe("retry backoff on a real server", { timeout: 60_000 }, () => {
  it("claims the retry after its backoff, across a kill -9 in the middle of it", async () => {
    const dir = serverDir("ym-backoff-");
    dirs.push(dir);
    writeFileSync(join(dir, "flaky.ts"), FLAKY);
    let served: Served = await serve({ dir, toml: TOML, children });
    const submitted = await call(served.url, "/api/workflows/flaky/runs", post({ title: "b" }));
    expect(submitted.status).toBe(201);
    const runId = submitted.body.run_id as string;
    const retry = await eventually(() => taskOf(served.url, runId, 2), "the retry enqueued");
    expect(retry.status).toBe("ready");
    const first = await taskOf(served.url, runId, 1);
    expect(first.status).toBe("failed");
    // The retry is due two seconds after the failure.
    const due = Date.parse(retry.not_before);
    expect(due - Date.parse(first.finished)).toBe(2000);
    const events = (await call(served.url, `/api/runs/${runId}/events?limit=100`)).body;
    const failed = events.find((e: { name: string }) => e.name === "task.failed");
    expect(failed.data.retry_at).toBe(retry.not_before);
    await crash(served);
    served = await serve({ dir, toml: TOML, children });
    const run = await eventually(async () => {
      const r = (await call(served.url, `/api/runs/${runId}`)).body;
      return r.status === "completed" && r;
    }, "the run completed after the restart");
    const second = run.tasks.find((t: { attempt: number }) => t.attempt === 2);
    expect(second.status).toBe("done");
    expect(Date.parse(second.started)).toBeGreaterThanOrEqual(due);
    expect(run.output).toBe("ok");
  });
});
