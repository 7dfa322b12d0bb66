// Two `yardmaster serve` processes on one store: the second refuses to start, before it
// recovers or claims anything, so the first finishes its attempt as if nothing happened. (It
// used to recover the first server's attempt, claim it, and leave its run running for ever.)
// A crashed server leaves no lock behind.
import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeExit, serve as start } from "../support/serve.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
const children: ChildProcess[] = [];

const WORKFLOW = `import { workflow } from "yardmaster";
export const slow = workflow("slow");
slow.node({ start: true }, async function nap({}, input: { title: string }) {
  await new Promise((r) => setTimeout(r, Number(input.title)));
  return "rested";
});
`;
const CONFIG = `[pools.default]\ncapacity = 2\n[workflows.slow]\ntarget = "slow.ts:slow"\n`;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-one-store-"));
  await writeFile(join(dir, "slow.ts"), WORKFLOW);
  await writeFile(join(dir, "yardmaster.toml"), CONFIG);
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  await rm(dir, { recursive: true, force: true });
});

interface Started {
  url: string | null;
  exit: Promise<{ code: number | null; stderr: string }>;
  child: ChildProcess;
}

/** Starts `yardmaster serve` in `dir`; `url` is null when it exited before its ready line. */
async function serve(): Promise<Started> {
  try {
    const served = await start({ dir, args: ["--port", "0"], children });
    const exit = served.exited.then((code) => ({ code, stderr: served.output() }));
    return { url: served.url, exit, child: served.child };
  } catch (err) {
    if (!(err instanceof ServeExit)) throw err;
    const exit = Promise.resolve({ code: err.code, stderr: err.output });
    return { url: null, exit, child: children.at(-1)! };
  }
}

async function json(url: string, init?: RequestInit): Promise<any> {
  const res = await fetch(url, init);
  return res.json();
}

describe("one server per store", () => {
  it("a second server on the same store refuses to start and takes nothing over", async () => {
    const first = await serve();
    const base = first.url!;
    const { run_id } = await json(`${base}/api/workflows/slow/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "1500" }),
    });
    await eventually(
      async () => (await json(`${base}/api/runs/${run_id}`)).status === "running",
      "run running",
    );

    const second = await serve();
    expect(second.url).toBeNull();
    const { code, stderr } = await second.exit;
    expect(code).toBe(1);
    expect(stderr).toContain("server.store");
    expect(stderr).toContain("in use by another Yardmaster server");

    await eventually(
      async () => (await json(`${base}/api/runs/${run_id}`)).status === "completed",
      "run completed",
    );
    const events: { name: string }[] = await json(`${base}/api/runs/${run_id}/events`);
    expect(events.filter((e) => e.name === "task.started")).toHaveLength(1);
    expect((await json(`${base}/api/runs/${run_id}`)).output).toBe("rested");
  });

  it("the store is free again once its server stops, or dies", async () => {
    const first = await serve();
    first.child.kill("SIGTERM");
    expect((await first.exit).code).toBe(0);
    const second = await serve();
    expect(second.url).not.toBeNull();
    second.child.kill("SIGKILL");
    await second.exit;
    const third = await serve();
    expect(third.url).not.toBeNull();
  });
});
