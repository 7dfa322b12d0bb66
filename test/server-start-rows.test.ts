// Start-up from `[workflows.<name>]` rows: a workflow registers under its own name, and a table
// named otherwise is reported, naming the file and the key.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../src/config/index.ts";
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

it("refuses to start with every bad row named by file and key, not only the first", async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-rows-"));
  const file = join(dir, "yardmaster.toml");
  writeFileSync(
    join(dir, "nostart.ts"),
    `import { workflow } from "yardmaster";
export const nostart = workflow("nostart");
nostart.node(async function lonely() { return 1; });
`,
  );
  const rows = [
    `[workflows.chain]\ntarget = "${FLOWS}:chain"`,
    '[workflows.nostart]\ntarget = "nostart.ts:nostart"',
    '[workflows.ghost]\ntarget = "ghost.ts:ghost"',
  ];
  writeFileSync(
    file,
    ["[server]\nport = 0\n\n[pools.default]\ncapacity = 1\n", ...rows].join("\n"),
  );
  const config = await loadConfig({ file, cwd: dir });
  const failure = await startServer(config).then(
    (s) => {
      server = s;
      return null;
    },
    (err: unknown) => err as ConfigError,
  );
  expect(failure).toBeInstanceOf(ConfigError);
  expect(failure!.problems.map((p) => p.key)).toEqual(["workflows.nostart", "workflows.ghost"]);
  const lines = failure!.message.split("\n");
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(
    new RegExp(`^${file}: workflows\\.nostart: .*stage finalize.*no start node`),
  );
  expect(lines[1]).toMatch(
    new RegExp(`^${file}: workflows\\.ghost: .*stage import.*file not found`),
  );
});
