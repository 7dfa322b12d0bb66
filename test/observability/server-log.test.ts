// What a real `yardmaster serve` logs: JSON lines when stderr is not a terminal, one line per
// request with its request id, engine lines naming run, task, workflow and node, and a 500 with
// its cause (it used to be dropped: serve ran fastify without a logger). Readable lines with
// --log-format pretty.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { call, post } from "../support/http-client.ts";
import { killAll, serve, stop } from "../support/serve.ts";
import { FLOWS } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

const children: ChildProcess[] = [];
let dir: string;

afterEach(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  dir = mkdtempSync(join(tmpdir(), "ym-log-"));
  writeFileSync(
    join(dir, "yardmaster.toml"),
    `[server]\nport = 0\nstore = "sqlite:store.db"\nworkflow_roots = ["${dirname(FLOWS)}"]\n` +
      `[pools.default]\ncapacity = 2\n` +
      `[workflows.chain]\ntarget = "${FLOWS}:chain"\n`,
  );
  return dir;
}

async function completedRun(url: string): Promise<string> {
  const { body } = await call(url, "/api/workflows/chain/runs", post({ title: "logged" }));
  await eventually(
    async () => (await call(url, `/api/runs/${body.run_id}`)).body.status === "completed",
    "the run completed",
  );
  return body.run_id;
}

describe("yardmaster serve logs", () => {
  it("writes JSON lines off a terminal: requests with ids, engine steps, and a 500's cause", async () => {
    const log: string[] = [];
    const served = await serve({
      dir: folder(),
      children,
      env: { YARDMASTER_LOG_LEVEL: "debug" },
      log,
    });
    const runId = await completedRun(served.url);
    // A fault of ours, not of the request: the table of the work log is gone.
    const db = new Database(join(dir, "store.db"));
    db.exec("ALTER TABLE log RENAME TO log_elsewhere");
    db.close();
    const failed = await call(served.url, `/api/runs/${runId}/log`);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ error: "Internal error", code: "internal" });
    await stop(served);
    await served.logged;

    const entries = log.map((line) => JSON.parse(line));
    const submit = entries.find((e) => e.path === "/api/workflows/chain/runs");
    expect(submit).toMatchObject({ msg: "request completed", method: "POST", status: 201 });
    expect(submit.reqId).toEqual(expect.any(String));
    const started = entries.filter((e) => e.msg === "attempt started" && e.run_id === runId);
    expect(started.map((e) => e.node)).toEqual(["first", "second", "third"]);
    for (const e of started) {
      expect(e).toMatchObject({ workflow: "chain", task_id: expect.any(Number), attempt: 1 });
    }
    expect(entries.find((e) => e.msg === "run completed")).toMatchObject({
      run_id: runId,
      workflow: "chain",
      node: "third",
    });
    // The 500: its cause is logged under the failed request's id, never sent to the client.
    const cause = entries.find((e) => e.msg === "request failed");
    expect(cause.level).toBe(50);
    expect(cause.err.message).toMatch(/no such table/);
    const line = entries.find((e) => e.path === `/api/runs/${runId}/log`);
    expect(line).toMatchObject({ status: 500, reqId: cause.reqId });
    expect(entries.some((e) => e.msg === "SIGTERM received: stopping")).toBe(true);
  });

  it("writes readable lines with --log-format pretty", async () => {
    const log: string[] = [];
    const served = await serve({ dir: folder(), children, args: ["--log-format", "pretty"], log });
    await completedRun(served.url);
    await stop(served);
    await served.logged;
    const request = log.find((l) => l.includes("path=/api/workflows/chain/runs"));
    expect(request).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request completed {2}reqId=\S+ method=POST .*status=201/,
    );
    expect(log.some((l) => /INFO {2}run completed {2}run_id=\S+ workflow=chain/.test(l))).toBe(
      true,
    );
  });
});
