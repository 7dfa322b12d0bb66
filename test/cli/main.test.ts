import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIo } from "../../src/cli/cli-io.ts";
import { main } from "../../src/cli/main.ts";

const run = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-cli-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the CLI in-process and collects what it printed. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { cwd: dir, out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await main(argv, io);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

describe("yardmaster help and version", () => {
  it("prints every command for --help and exits 0", async () => {
    const result = await cli("--help");
    expect(result.code).toBe(0);
    expect(result.out).toContain(
      "yardmaster serve [--config FILE] [--host H] [--port P] [--store URL]",
    );
    expect(result.out).toContain("yardmaster token rotate [--config FILE]");
    expect(result.err).toBe("");
  });

  it("prints usage and exits 2 when no command is given", async () => {
    const result = await cli();
    expect(result.code).toBe(2);
    expect(result.err).toContain("Usage:");
    expect(result.out).toBe("");
  });

  it("prints one command's usage for `serve --help` without starting anything", async () => {
    const result = await cli("serve", "--help");
    expect(result.code).toBe(0);
    expect(result.out.split("\n")[0]).toBe(
      "Usage: yardmaster serve [--config FILE] [--host H] [--port P] [--store URL]",
    );
  });

  it("prints the package version", async () => {
    const pkg = JSON.parse(await readFile("package.json", "utf8")) as { version: string };
    const result = await cli("--version");
    expect(result).toEqual({ code: 0, out: pkg.version, err: "" });
  });
});

describe("yardmaster command line errors", () => {
  it("refuses an unknown command with exit 2", async () => {
    const result = await cli("frobnicate");
    expect(result.code).toBe(2);
    expect(result.err).toBe("yardmaster: unknown command frobnicate; see yardmaster --help");
  });

  it("refuses an unknown top-level option with exit 2", async () => {
    const result = await cli("--verbose");
    expect(result.code).toBe(2);
    expect(result.err).toMatch(/unknown option --verbose/);
  });

  it("refuses an unknown option of a command with exit 2", async () => {
    const result = await cli("serve", "--prot", "80");
    expect(result.code).toBe(2);
    expect(result.err).toBe("yardmaster serve: unknown option --prot; see yardmaster serve --help");
  });

  it("refuses a port that is not a number, and a missing option value, with exit 2", async () => {
    expect((await cli("serve", "--port", "eighty")).err).toMatch(/--port expects a port number/);
    const missing = await cli("serve", "--config");
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/option --config needs a value/);
  });

  it("refuses `token` without the rotate action with exit 2", async () => {
    expect((await cli("token")).code).toBe(2);
    const other = await cli("token", "show");
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/unknown action show/);
  });

  it("runs the client commands: usage errors exit 2, an unreachable server exits 3", async () => {
    const submit = await cli("submit");
    expect(submit.code).toBe(2);
    expect(submit.err).toMatch(/missing WORKFLOW/);
    for (const command of ["runs", "tail"]) {
      const result = await cli(command, "--url", "http://127.0.0.1:9");
      expect(result.code).toBe(3);
      expect(result.err).toMatch(/cannot reach http:\/\/127\.0\.0\.1:9/);
    }
  });
});

describe("yardmaster serve configuration", () => {
  it("exits 1 naming the file and key when the configuration is invalid", async () => {
    await writeFile(join(dir, "yardmaster.toml"), '[pools.default]\ncapacity = "four"\n');
    const result = await cli("serve");
    expect(result.code).toBe(1);
    expect(result.err).toContain(
      'yardmaster.toml: pools.default.capacity: expected a positive integer, got "four"',
    );
    expect(result.out).toBe("");
  });

  it("exits 1 when --config names a missing file", async () => {
    const result = await cli("serve", "--config", "elsewhere.toml");
    expect(result.code).toBe(1);
    expect(result.err).toContain("elsewhere.toml: file not found");
  });
});

describe("bin/yardmaster.mjs", () => {
  it("runs main as a real process and exits with its code", async () => {
    const ok = await run(process.execPath, ["bin/yardmaster.mjs", "--help"]);
    expect(ok.stdout).toContain("yardmaster serve");
    const bad = await run(process.execPath, ["bin/yardmaster.mjs", "nope"]).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain("unknown command nope");
  });
});
