// Start-up from `[workflows.<name>]` rows: a workflow registers under its own name, and a table
// named otherwise is reported, naming the file and the key.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { loadConfig } from "../src/config/index.ts";
import { type RunningServer, startServer } from "../src/server/start.ts";
import { FLOWS } from "./support/server-harness.ts";

let server: RunningServer | undefined;
let dir: string | undefined;
afterEach(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  server = dir = undefined;
});

it("registers a row's workflow under its own name and names the mismatched table", async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-rows-"));
  const file = join(dir, "yardmaster.toml");
  const rows = ["[workflows.pipeline]", `target = "${FLOWS}:chain"`];
  writeFileSync(
    file,
    ["[server]\nport = 0\n\n[pools.default]\ncapacity = 1\n", ...rows].join("\n"),
  );
  const lines: string[] = [];
  server = await startServer(await loadConfig({ file, cwd: dir }), {
    log: (line) => lines.push(line),
  });
  const names = (await (await fetch(`${server.url}/api/workflows`)).json()) as { name: string }[];
  expect(names.map((w) => w.name)).toEqual(["chain"]);
  expect(lines).toEqual([
    `${file}: workflows.pipeline: the target defines workflow "chain", registered as "chain"; ` +
      "name the table [workflows.chain] so persisted removal finds it",
  ]);
});
