// The real `yardmaster` binary as a script runs it: exit codes and stdout that scripts can
// trust, `submit --wait`, and `tail` following the stream until SIGINT.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestServer, type TestServer } from "../support/server-harness.ts";
import { freePort, spawnCli } from "./client-kit.ts";

let server: TestServer;
let children: ReturnType<typeof spawnCli>[] = [];

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  for (const { child } of children) if (child.exitCode === null) child.kill("SIGKILL");
  children = [];
});

/** Runs the binary to its end against the test server (or `url`). */
async function ym(args: string[], url = server.url) {
  const run = spawnCli(args, { YARDMASTER_URL: url });
  children.push(run);
  const code = await run.exited;
  return { code, ...run.output };
}

function follow(args: string[]) {
  const run = spawnCli(args, { YARDMASTER_URL: server.url });
  children.push(run);
  return run;
}

describe("yardmaster binary", () => {
  it("submit --wait exits 0 for a completed run, with the run id as the last stdout line", {
    timeout: 30_000,
  }, async () => {
    const result = await ym(["submit", "chain", "--title", "from a script", "--wait"]);
    expect(result.code).toBe(0);
    const id = result.stdout.trimEnd().split("\n").at(-1)!;
    expect(id).toMatch(/^[0-9A-Z]{26}$/);
    expect(result.stderr).toContain("run.completed");
    const run = await server.call("GET", `/api/runs/${id}`);
    expect(run.body).toMatchObject({ status: "completed", title: "from a script" });
  });

  it("submit --wait exits 1 when the run fails", { timeout: 30_000 }, async () => {
    const result = await ym(["submit", "chain", "--title", "fail", "--wait"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Run \w+ failed/);
  });

  it("submit --wait stops waiting on SIGINT with exit 130; the run goes on", {
    timeout: 30_000,
  }, async () => {
    const run = follow(["submit", "chain", "--title", "sleep:60000", "--wait"]);
    await eventually(async () => run.output.stderr.includes("task.started"), "run started", 20_000);
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    const id = run.output.stdout.trim();
    expect(run.output.stderr).toContain(`stopped waiting; run ${id} goes on`);
    expect((await server.call("GET", `/api/runs/${id}`)).body.status).toBe("running");
    await server.call("POST", `/api/runs/${id}/cancel`);
  });

  it("tail prints events as they happen and exits 0 on SIGINT", { timeout: 30_000 }, async () => {
    const earlier = (await server.call("POST", "/api/workflows/chain/runs", { title: "x" })).body;
    const tail = follow(["tail", "--after", "0", "--names", "run.*"]);
    // Once the replay shows the earlier run, the stream is open: what follows arrives live.
    const replayed = new RegExp(`run\\.created +${earlier.run_id.slice(-8)}`);
    await eventually(async () => replayed.test(tail.output.stdout), "replay shown", 20_000);
    const id = (await ym(["submit", "chain", "--title", "tailed"])).stdout.trim();
    const completed = new RegExp(`run\\.completed +${id.slice(-8)} +#\\d+ +node=third`);
    await eventually(async () => completed.test(tail.output.stdout), "tail saw it", 20_000);
    expect(tail.output.stdout).not.toMatch(/task\./);
    tail.child.kill("SIGINT");
    expect(await tail.exited).toBe(0);
  });

  it("ends quietly with 0 when its reader closes stdout (| head)", {
    timeout: 30_000,
  }, async () => {
    const tail = follow(["tail", "--after", "0"]);
    await eventually(async () => tail.output.stdout.length > 0, "first lines", 20_000);
    // What `head -1` does once it has its line: close the read end of the pipe.
    tail.child.stdout!.destroy();
    await ym(["submit", "chain", "--title", "after the reader left"]);
    expect(await tail.exited).toBe(0);
    expect(tail.output.stderr).not.toMatch(/EPIPE|Error/);
  });

  it("exits 1 for a 404, 2 for a usage error and 3 for an unreachable server", {
    timeout: 30_000,
  }, async () => {
    const missing = await ym(["show", "01ARZ3NDEKTSV4RRFFQ69G5FAV"]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr.trim()).toMatch(/^yardmaster show: .+ \[404 not_found\]$/);
    const usage = await ym(["answer", "7"]);
    expect(usage.code).toBe(2);
    const down = await ym(["runs"], `http://127.0.0.1:${await freePort()}`);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain("ECONNREFUSED");
  });
});
