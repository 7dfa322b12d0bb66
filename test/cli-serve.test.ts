import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = resolve("bin/yardmaster.mjs");
let dir: string;
let child: ChildProcess | null = null;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-serve-"));
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  child = null;
  await rm(dir, { recursive: true, force: true });
});

/** Starts `yardmaster serve` in `dir` and resolves with the first stdout line. */
function serve(args: string[]): Promise<string> {
  const proc = spawn(process.execPath, [BIN, "serve", ...args], { cwd: dir, stdio: "pipe" });
  child = proc;
  const stderr: string[] = [];
  proc.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  return new Promise((done, fail) => {
    createInterface({ input: proc.stdout }).once("line", done);
    proc.once("exit", (code) => fail(new Error(`serve exited ${code}: ${stderr.join("")}`)));
  });
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
    const second = spawn(
      process.execPath,
      [BIN, "serve", "--port", port, "--store", "sqlite:b.db"],
      {
        cwd: dir,
        stdio: "pipe",
      },
    );
    const stderr: string[] = [];
    second.stderr.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
    expect(await exitCode(second)).toBe(1);
    expect(stderr.join("")).toMatch(/^yardmaster serve: .*EADDRINUSE/m);
    child!.kill("SIGTERM");
    expect(await exitCode(child!)).toBe(0);
  });
});
