import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ConfigWriteError,
  loadConfig,
  persistWorkflowRow,
  removeWorkflowRow,
} from "../../src/config/index.ts";

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-rows-"));
  file = join(dir, "yardmaster.toml");
});
afterEach(async () => {
  await chmod(dir, 0o700).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

const ORIGINAL = [
  "# Yardmaster for the triage team",
  "[server]",
  "port = 8420   # fixed for the proxy",
  "",
  "[pools.default]",
  "capacity = 4",
  "",
  "[workflows.triage]   # the main one",
  "# keep this comment",
  'target = "workflows/triage.ts:triage"',
  'pool = "default"',
  "",
  "# Agents below",
  "[agents.default]",
  'command = ["node", "agent.mjs"]',
  "",
].join("\n");

const read = () => readFile(file, "utf8");

describe("persistWorkflowRow", () => {
  it("appends a new row after one blank line and leaves every other byte alone", async () => {
    await writeFile(file, ORIGINAL);
    await persistWorkflowRow(file, "review", { target: "flows/review.ts:review", pool: "default" });
    expect(await read()).toBe(
      `${ORIGINAL}\n[workflows.review]\ntarget = "flows/review.ts:review"\npool = "default"\n`,
    );
    const config = await loadConfig({ cwd: dir });
    expect(config.workflows.review.writtenTarget).toBe("flows/review.ts:review");
  });

  it("replaces an existing row in place, keeping its comments and the tables around it", async () => {
    await writeFile(file, ORIGINAL);
    await persistWorkflowRow(file, "triage", { target: "v2/triage.ts:triage", pool: "default" });
    const expected = ORIGINAL.replace(
      'target = "workflows/triage.ts:triage"',
      'target = "v2/triage.ts:triage"',
    );
    expect(await read()).toBe(expected);
  });

  it("keeps a comment at the end of a rewritten key line", async () => {
    const before = [
      "[workflows.a]",
      'target = "a.ts:a"   # reviewed by ops',
      "pool = 'slow' #  \"quoted\" # twice",
      'target2 = "x"',
      "",
    ].join("\r\n");
    await writeFile(file, before);
    await persistWorkflowRow(file, "a", { target: "b.ts:a", pool: "fast" });
    const after = before.replace('"a.ts:a"', '"b.ts:a"').replace("pool = 'slow'", 'pool = "fast"');
    expect(await read()).toBe(after);
    await writeFile(file, '[workflows.a]\ntarget = "a\\"#.ts:a"# tight\npool = "p"\n');
    await persistWorkflowRow(file, "a", { target: "c.ts:a", pool: "p" });
    expect(await read()).toBe('[workflows.a]\ntarget = "c.ts:a"# tight\npool = "p"\n');
  });

  it("adds a key the row lacked after its last key line", async () => {
    await writeFile(file, '[workflows.a]\ntarget = "a.ts:a"\n\n[pools.default]\ncapacity = 1\n');
    await persistWorkflowRow(file, "a", { target: "a.ts:a", pool: "default" });
    expect(await read()).toBe(
      '[workflows.a]\ntarget = "a.ts:a"\npool = "default"\n\n[pools.default]\ncapacity = 1\n',
    );
  });

  it("finds quoted table names and writes names that need quotes quoted", async () => {
    await writeFile(file, '[workflows."my flow"]\ntarget = \'old.ts:x\'\npool = "default"\n');
    await persistWorkflowRow(file, "my flow", { target: "new.ts:x", pool: "default" });
    expect(await read()).toBe('[workflows."my flow"]\ntarget = "new.ts:x"\npool = "default"\n');
    await persistWorkflowRow(file, "b.c", { target: 'we"ird.ts:b', pool: "default" });
    expect(await read()).toContain('\n\n[workflows."b.c"]\ntarget = "we\\"ird.ts:b"\n');
    const config = await loadConfig({ cwd: dir });
    expect(Object.keys(config.workflows)).toEqual(["my flow", "b.c"]);
    expect(config.workflows["b.c"].writtenTarget).toBe('we"ird.ts:b');
  });

  it("keeps CRLF line endings", async () => {
    await writeFile(file, "[pools.default]\r\ncapacity = 4\r\n");
    await persistWorkflowRow(file, "a", { target: "a.ts:a", pool: "default" });
    expect(await read()).toBe(
      '[pools.default]\r\ncapacity = 4\r\n\r\n[workflows.a]\r\ntarget = "a.ts:a"\r\npool = "default"\r\n',
    );
  });

  it("creates a missing file holding only the row", async () => {
    await persistWorkflowRow(file, "a", { target: "a.ts:a", pool: "default" });
    expect(await read()).toBe('[workflows.a]\ntarget = "a.ts:a"\npool = "default"\n');
  });

  it("serialises concurrent writes so no row is lost", async () => {
    await writeFile(file, ORIGINAL);
    const names = ["w1", "w2", "w3", "w4", "w5"];
    await Promise.all(
      names.map((name) =>
        persistWorkflowRow(file, name, { target: `${name}.ts:x`, pool: "default" }),
      ),
    );
    const config = await loadConfig({ cwd: dir });
    expect(Object.keys(config.workflows).sort()).toEqual(["triage", ...names]);
  });

  it("refuses to write when the row is defined another way, leaving the file as it was", async () => {
    const inline = 'workflows = { a = { target = "a.ts:a" } }\n';
    await writeFile(file, inline);
    const error = await persistWorkflowRow(file, "a", { target: "b.ts:b", pool: "default" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigWriteError);
    expect((error as ConfigWriteError).path).toBe(file);
    expect((error as ConfigWriteError).detail).toMatch(/would not parse as TOML/);
    expect(await read()).toBe(inline);
  });

  it("refuses a file that does not parse", async () => {
    await writeFile(file, "[server\n");
    const error = await persistWorkflowRow(file, "a", { target: "a.ts:a", pool: "p" }).catch(
      (e: unknown) => e,
    );
    expect((error as ConfigWriteError).detail).toMatch(/^the file does not parse as TOML/);
  });

  // Root ignores folder permissions, so this case is reported as skipped there.
  it.skipIf(process.getuid?.() === 0)(
    "reports a read-only folder, leaving no temp file",
    async () => {
      await writeFile(file, ORIGINAL);
      await chmod(dir, 0o500);
      const error = await persistWorkflowRow(file, "a", {
        target: "a.ts:a",
        pool: "default",
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigWriteError);
      expect((error as Error).message).toMatch(new RegExp(`^cannot update ${file}: .*EACCES`));
      await chmod(dir, 0o700);
      expect(await readdir(dir)).toEqual(["yardmaster.toml"]);
      expect(await read()).toBe(ORIGINAL);
    },
  );

  it("reports a missing folder as a write failure", async () => {
    const nowhere = join(dir, "missing", "yardmaster.toml");
    const error = await persistWorkflowRow(nowhere, "a", { target: "a.ts:a", pool: "p" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigWriteError);
    expect((error as ConfigWriteError).path).toBe(nowhere);
    expect((error as ConfigWriteError).detail).toMatch(/ENOENT/);
  });

  it("reports a path under a plain file as a failure naming the path", async () => {
    await writeFile(join(dir, "plain"), "");
    const below = join(dir, "plain", "yardmaster.toml");
    const error = await persistWorkflowRow(below, "a", { target: "a.ts:a", pool: "p" }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigWriteError);
    expect((error as Error).message).toMatch(new RegExp(`^cannot update ${below}: .*ENOTDIR`));
  });

  it("keeps the file's permissions", async () => {
    await writeFile(file, ORIGINAL, { mode: 0o640 });
    await chmod(file, 0o640);
    await persistWorkflowRow(file, "a", { target: "a.ts:a", pool: "default" });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it("creates a missing file private to the user, whatever the umask", async () => {
    const umask = process.umask(0o022);
    try {
      await persistWorkflowRow(file, "a", { target: "a.ts:a", pool: "default" });
    } finally {
      process.umask(umask);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("removeWorkflowRow", () => {
  it("removes a row in the middle, keeping comments of the next table", async () => {
    await writeFile(file, ORIGINAL);
    expect(await removeWorkflowRow(file, "triage")).toBe(true);
    const expected = ORIGINAL.replace(
      '[workflows.triage]   # the main one\n# keep this comment\ntarget = "workflows/triage.ts:triage"\npool = "default"\n\n',
      "",
    );
    expect(await read()).toBe(expected);
  });

  it("undoes an append byte for byte", async () => {
    await writeFile(file, ORIGINAL);
    await persistWorkflowRow(file, "review", { target: "r.ts:r", pool: "default" });
    expect(await removeWorkflowRow(file, "review")).toBe(true);
    expect(await read()).toBe(ORIGINAL);
  });

  it("removes a quoted row", async () => {
    const text = "[pools.default]\ncapacity = 4\n\n[workflows.'odd name']\ntarget = \"o.ts:o\"\n";
    await writeFile(file, text);
    expect(await removeWorkflowRow(file, "odd name")).toBe(true);
    expect(await read()).toBe("[pools.default]\ncapacity = 4\n");
  });

  it("answers false, and writes nothing, when there is no row or no file", async () => {
    await writeFile(file, ORIGINAL);
    const before = (await stat(file)).mtimeMs;
    expect(await removeWorkflowRow(file, "absent")).toBe(false);
    expect(await read()).toBe(ORIGINAL);
    expect((await stat(file)).mtimeMs).toBe(before);
    const missing = join(dir, "sub");
    await mkdir(missing);
    expect(await removeWorkflowRow(join(missing, "none.toml"), "a")).toBe(false);
    expect(await readdir(missing)).toEqual([]);
  });

  it("refuses to remove a row it cannot find as a table", async () => {
    await writeFile(file, '[workflows]\na = { target = "a.ts:a" }\n');
    const error = await removeWorkflowRow(file, "a").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigWriteError);
    expect((error as ConfigWriteError).detail).toMatch(/not written as a \[workflows\.a\] table/);
  });
});
