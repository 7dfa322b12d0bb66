// Start-up from `[workflows.<name>]` rows: a workflow registers under its own name, and a table
// named otherwise is reported, naming the file and the key.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.ts";
import { createLogger } from "../../src/observability/logger.ts";
import { type RunningServer, startServer } from "../../src/server/start.ts";
import { FLOWS } from "../support/server-harness.ts";

/** The rows name the fixtures' flows by absolute path: their folder is a workflow root too. */
const SERVER = `[server]\nport = 0\nworkflow_roots = [".", ${JSON.stringify(dirname(FLOWS))}]\n`;

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
  writeFileSync(file, [`${SERVER}\n[pools.default]\ncapacity = 1\n`, ...rows].join("\n"));
  const lines: string[] = [];
  const destination = { write: (line: string) => lines.push(JSON.parse(line).msg) };
  server = await startServer(await loadConfig({ file, cwd: dir }), {
    logger: createLogger({ level: "warn", format: "json", destination }),
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
  writeFileSync(file, [`${SERVER}\n[pools.default]\ncapacity = 1\n`, ...rows].join("\n"));
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

/** Starts on a configuration file in a fresh folder and answers the ConfigError it refused with. */
async function refusal(
  serverKeys: string,
  rows: string,
): Promise<{ file: string; error: ConfigError }> {
  dir = mkdtempSync(join(tmpdir(), "ym-rows-"));
  const file = join(dir, "yardmaster.toml");
  writeFileSync(file, `${SERVER}${serverKeys}\n[pools.default]\ncapacity = 1\n\n${rows}`);
  const error = await startServer(await loadConfig({ file, cwd: dir })).then(
    (s) => {
      server = s;
      return new Error("the server started");
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return { file, error: error as ConfigError };
}

it("refuses two rows that load the same workflow, naming both", async () => {
  const rows = `[workflows.chain]\ntarget = "${FLOWS}:chain"\n\n[workflows.again]\ntarget = "${FLOWS}:chain"\n`;
  const { file, error } = await refusal("", rows);
  expect(error.message).toBe(
    `${file}: workflows.again: defines workflow "chain", which workflows.chain already registers; keep one row per workflow`,
  );
});

it("names server.store when the store file cannot be opened", async () => {
  // The store's folder would have to be made where a regular file (the config itself) is.
  const { file, error } = await refusal('store = "sqlite:yardmaster.toml/store.db"', "");
  expect(error.problems.map((p) => p.key)).toEqual(["server.store"]);
  expect(error.message).toMatch(
    new RegExp(
      `^${file}: server\\.store: cannot open sqlite:.*yardmaster\\.toml/store\\.db: .*EEXIST`,
    ),
  );
});
