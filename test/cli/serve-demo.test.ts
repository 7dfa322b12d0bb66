// The real `yardmaster` command as a user runs it: `serve` with no configuration serves the demo
// and runs it to completion; with `require_token`, requests need the token, and
// `yardmaster token rotate` swaps it on the running server without a restart.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rotateToken, serve as start } from "../support/serve.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
let child: ChildProcess | null = null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-cli-"));
});
afterEach(async () => {
  // npx runs the server as its own child: the group (detached below) is killed as a whole.
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
  child = null;
  await rm(dir, { recursive: true, force: true });
});

async function serve(args: string[], command?: string[], cwd = dir): Promise<string> {
  const served = await start({ dir: cwd, args, command, detached: true });
  child = served.child;
  return served.url;
}

describe("yardmaster serve", () => {
  it("with no configuration registers the demo and runs it", { timeout: 40_000 }, async () => {
    const url = await serve(["--port", "0"]);
    const workflows = (await (await fetch(`${url}/api/workflows`)).json()) as any;
    expect(workflows.map((w: { name: string }) => w.name)).toEqual(["demo"]);
    const res = await fetch(`${url}/api/workflows/demo/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "latte mocha" }),
    });
    const { run_id } = (await res.json()) as any;
    const run = await eventually(
      async () => {
        const r = (await (await fetch(`${url}/api/runs/${run_id}`)).json()) as any;
        return r.status === "completed" && r;
      },
      "demo run completed",
      20_000,
    );
    expect(run.output).toEqual({ tray: expect.arrayContaining([expect.stringMatching(/^latte/)]) });
  });

  it("starts with the README's `npx yardmaster serve` in the project folder", {
    timeout: 40_000,
  }, async () => {
    // npx installs the project itself to find its bin, under the project's
    // strict-allow-scripts policy: a lifecycle script it counts would refuse to start.
    const store = `sqlite:${join(dir, "store.db")}`;
    const url = await serve(["--port", "0", "--store", store], ["npx", "yardmaster"], resolve("."));
    const health = (await (await fetch(`${url}/api/health`)).json()) as any;
    expect(health).toMatchObject({ ok: true, pools: { default: { capacity: 4, in_flight: 0 } } });
    const workflows = (await (await fetch(`${url}/api/workflows`)).json()) as any;
    expect(workflows.map((w: { name: string }) => w.name)).toEqual(["demo"]);
  });

  it("requires the token when asked to, and takes a rotated one without restart", {
    timeout: 40_000,
  }, async () => {
    const config = join(dir, "yardmaster.toml");
    await writeFile(config, "[server]\nrequire_token = true\n\n[pools.default]\ncapacity = 1\n");
    const url = await serve(["--config", config, "--port", "0"]);
    const rotate = () => rotateToken(config);
    const get = (token?: string) =>
      fetch(`${url}/api/runs`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect((await get()).status).toBe(401);
    expect(((await (await get()).json()) as any).code).toBe("unauthorized");
    const me = (await (await fetch(`${url}/api/me`)).json()) as any;
    expect(me).toMatchObject({ auth: "token", authenticated: false });
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    const first = await rotate();
    await eventually(async () => (await get(first)).status === 200, "first token accepted");
    const second = await rotate();
    expect(second).not.toBe(first);
    await eventually(async () => (await get(second)).status === 200, "rotated token accepted");
    expect((await get(first)).status).toBe(401);
    const sse = await fetch(`${url}/api/events?access_token=${second}`, {
      signal: AbortSignal.timeout(2000),
    });
    expect(sse.status).toBe(200);
    await sse.body?.cancel();
    expect((await fetch(`${url}/api/runs?access_token=${second}`)).status).toBe(401);
  });
});
