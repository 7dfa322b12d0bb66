import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-token-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rotate(config: string): Promise<string> {
  const { stdout } = await run(process.execPath, [
    "bin/yardmaster.mjs",
    "token",
    "rotate",
    "--config",
    config,
  ]);
  const lines = stdout.trimEnd().split("\n");
  return lines[lines.length - 1];
}

describe("yardmaster token rotate", () => {
  it("writes a fresh token to token_file (mode 0600) and prints it as the last line", async () => {
    const config = join(dir, "yardmaster.toml");
    await writeFile(config, '[server]\ntoken_file = "secrets/operator-token"\n');
    const first = await rotate(config);
    const tokenFile = join(dir, "secrets", "operator-token");
    expect(first.length).toBeGreaterThanOrEqual(20);
    expect((await readFile(tokenFile, "utf8")).trim()).toBe(first);
    expect((await stat(tokenFile)).mode & 0o777).toBe(0o600);

    const second = await rotate(config);
    expect(second).not.toBe(first);
    expect((await readFile(tokenFile, "utf8")).trim()).toBe(second);
  });

  it("uses .yardmaster/operator-token beside the configuration by default", async () => {
    const config = join(dir, "yardmaster.toml");
    await writeFile(config, "");
    const token = await rotate(config);
    const stored = await readFile(join(dir, ".yardmaster", "operator-token"), "utf8");
    expect(stored.trim()).toBe(token);
  });
});
