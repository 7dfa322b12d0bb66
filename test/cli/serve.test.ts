import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Served, serveOnce, serve as start } from "../support/serve.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
let child: ChildProcess | null = null;
let served: Served | null = null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-serve-"));
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = null;
  await rm(dir, { recursive: true, force: true });
});

/** Starts `yardmaster serve` in `dir` and resolves with its ready line. */
async function serve(args: string[]): Promise<string> {
  served = await start({ dir, args });
  child = served.child;
  return served.readyLine;
}

function exitCode(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null) return Promise.resolve(proc.exitCode);
  return new Promise((done) => proc.once("exit", (code) => done(code)));
}

describe("yardmaster serve", () => {
  it("prints one ready line with the URL, serves, and exits 0 on SIGTERM", async () => {
    // A file with a pool and no workflows keeps the server empty.
    await writeFile(join(dir, "yardmaster.toml"), "[pools.default]\ncapacity = 1\n");
    const line = await serve(["--port", "0", "--store", "sqlite:state.db"]);
    const match = /^Yardmaster listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
    expect(match).not.toBeNull();
    const health = await fetch(`${match![1]}/api/health`);
    expect(health.status).toBe(200);
    // After the ready line: console and docs, the store, the workflows, the token.
    const url = match![1];
    await eventually(async () => served!.output().includes("  token "), "the banner");
    const out = served!.output();
    expect(out).toContain(`  console    ${url}/\n`);
    expect(out).toContain(`  docs       ${url}/docs\n`);
    expect(out).toMatch(/ {2}store {6}sqlite:\/.*state\.db\n/);
    expect(out).toContain("  workflows  none\n");
    expect(out).toContain("  token      not required (loopback bind)\n");
    child!.kill("SIGTERM");
    expect(await exitCode(child!)).toBe(0);
  });

  it("stops on SIGINT too", async () => {
    await writeFile(join(dir, "yardmaster.toml"), "[pools.default]\ncapacity = 1\n");
    await serve(["--port", "0", "--store", "sqlite:state.db"]);
    child!.kill("SIGINT");
    expect(await exitCode(child!)).toBe(0);
  });

  it("exits 1 with the reason when the server cannot start (port taken)", async () => {
    await writeFile(join(dir, "yardmaster.toml"), "[pools.default]\ncapacity = 1\n");
    const line = await serve(["--port", "0", "--store", "sqlite:first.db"]);
    const port = new URL(line.replace("Yardmaster listening on ", "")).port;
    const second = await serveOnce(dir, ["--port", port, "--store", "sqlite:b.db"]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/^yardmaster serve: .*EADDRINUSE/m);
    child!.kill("SIGTERM");
    expect(await exitCode(child!)).toBe(0);
  });
});

describe("yardmaster serve with an attempt in flight", () => {
  it("exits on SIGTERM even when a body ignores its abort signal", async () => {
    // A body that never looks at ctx.signal keeps a 60 s timer: the stop must not wait for it.
    await writeFile(
      join(dir, "slow.ts"),
      [
        'import { workflow } from "yardmaster";',
        'export const slow = workflow("slow");',
        "slow.node({ start: true }, async function nap() {",
        "  await new Promise((r) => setTimeout(r, 60_000));",
        "});",
      ].join("\n"),
    );
    await writeFile(
      join(dir, "yardmaster.toml"),
      '[pools.default]\ncapacity = 1\n[workflows.slow]\ntarget = "slow.ts:slow"\n',
    );
    const line = await serve(["--port", "0", "--store", "sqlite:state.db"]);
    const url = line.replace("Yardmaster listening on ", "");
    await eventually(async () => served!.output().includes("  workflows  slow\n"), "the workflows");
    const created = await fetch(`${url}/api/workflows/slow/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "nap" }),
    });
    const { run_id } = (await created.json()) as { run_id: string };
    await expect
      .poll(async () => {
        const run = (await (await fetch(`${url}/api/runs/${run_id}`)).json()) as {
          current_nodes?: string[];
        };
        return run.current_nodes;
      })
      .toEqual(["nap"]);
    const started = Date.now();
    child!.kill("SIGTERM");
    expect(await exitCode(child!)).toBe(0);
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 30_000);
});
