import { spawn } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { it } from "vitest";
it("dbg", async () => {
  const dir = await mkdtemp(join(tmpdir(), "ym-dbg-"));
  await writeFile(join(dir, "yardmaster.toml"), "[pools.default]\ncapacity = 1\n");
  const proc = spawn(process.execPath, ["/work/main/bin/yardmaster.mjs", "serve", "--port", "0", "--store", "sqlite:state.db"], { cwd: dir, stdio: "pipe", env: { ...process.env, YM_DEBUG: "1" } });
  const log: string[] = [];
  proc.stderr.on("data", (c) => log.push("ERR: " + c));
  await new Promise((r) => createInterface({ input: proc.stdout }).once("line", (l) => { log.push("LINE " + l); r(null); }));
  proc.kill("SIGINT");
  await new Promise((r) => proc.on("close", (code, sig) => { log.push(`close ${code} ${sig}`); r(null); }));
  console.log(log.join("\n"));
});
