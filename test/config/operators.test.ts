// `[operators.<name>]` tables: names, token files relative to the configuration, and the
// start-time check that no two operators (the single token included) hold the same token.
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configText, loadConfig } from "../../src/config/index.ts";
import { prepareOperatorTokens } from "../../src/server/operator-tokens.ts";
import { configFailure } from "../support/config-failure.ts";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "ym-operators-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function load(toml: string, env: Record<string, string> = {}) {
  const file = join(dir, "yardmaster.toml");
  await writeFile(file, toml);
  return loadConfig({ cwd: dir, file, env });
}

describe("[operators.<name>]", () => {
  it("resolves each token_file against the configuration's folder", async () => {
    const config = await load(
      '[operators.ana]\ntoken_file = "tokens/ana"\n\n[operators.bo-2]\ntoken_file = "/abs/bo"\n',
    );
    expect(config.operators).toStrictEqual({
      ana: { tokenFile: join(dir, "tokens", "ana") },
      "bo-2": { tokenFile: "/abs/bo" },
    });
    // `serve --print-config` lists where each token is, never a token.
    expect(configText(config)).toContain(
      `[operators.ana]\ntoken_file = ${JSON.stringify(join(dir, "tokens", "ana"))}\n`,
    );
    // Without tables the key is absent: the single token only.
    expect(await load("")).not.toHaveProperty("operators");
  });

  it("refuses bad names, the reserved name, unknown keys and a shared file", async () => {
    expect(await configFailure(load('[operators."ana smith"]\ntoken_file = "a"\n'))).toBe(
      'yardmaster.toml: operators."ana smith": expected an operator name of letters, digits, _ and - (at most 64 characters)',
    );
    expect(await configFailure(load('[operators.operator]\ntoken_file = "a"\n'))).toBe(
      'yardmaster.toml: operators.operator: "operator" is the name of the single token ([server] token_file); choose another name',
    );
    expect(await configFailure(load('[operators.ana]\ntoken = "x"\n'))).toContain(
      "operators.ana.token: unknown key (known keys: token_file)",
    );
    expect(await configFailure(load("[operators.ana]\n"))).toContain(
      "operators.ana.token_file: missing required key (expected a file path)",
    );
    expect(
      await configFailure(
        load('[operators.ana]\ntoken_file = "t"\n[operators.bo]\ntoken_file = "./t"\n'),
      ),
    ).toBe(
      "yardmaster.toml: operators.bo.token_file: the same file as operators.ana.token_file; each operator needs its own token",
    );
  });
});

describe("operator tokens at start", () => {
  const toml =
    '[operators.ana]\ntoken_file = "tokens/ana"\n[operators.bo]\ntoken_file = "tokens/bo"\n';

  it("creates missing token files (0600) with distinct tokens and reports each", async () => {
    const config = await load(toml);
    const created: string[] = [];
    await prepareOperatorTokens(config, (file) => created.push(file));
    const files = [
      join(dir, ".yardmaster", "operator-token"),
      join(dir, "tokens", "ana"),
      join(dir, "tokens", "bo"),
    ];
    expect(created).toStrictEqual(files);
    const tokens = await Promise.all(files.map(async (f) => (await readFile(f, "utf8")).trim()));
    expect(new Set(tokens).size).toBe(3);
    for (const f of files) expect((await stat(f)).mode & 0o777).toBe(0o600);
    // A second start keeps them.
    const again: string[] = [];
    await prepareOperatorTokens(config, (file) => again.push(file));
    expect(again).toStrictEqual([]);
  });

  it("refuses two operators holding one token, naming both", async () => {
    await mkdir(join(dir, "tokens"));
    await writeFile(join(dir, "tokens", "ana"), "same-token\n");
    await writeFile(join(dir, "tokens", "bo"), "same-token\n");
    const message = await configFailure(prepareOperatorTokens(await load(toml), () => {}));
    expect(message).toBe(
      `${join(dir, "yardmaster.toml")}: operators.bo.token_file: holds the same token as operators.ana.token_file; each operator needs its own token (rotate one with \`yardmaster token rotate --operator NAME\`)`,
    );
  });

  it("refuses an operator holding the single token (file or YARDMASTER_TOKEN)", async () => {
    await mkdir(join(dir, "tokens"));
    await writeFile(join(dir, "tokens", "ana"), "shared\n");
    const config = await load(toml, { YARDMASTER_TOKEN: "shared" });
    expect(await configFailure(prepareOperatorTokens(config, () => {}))).toContain(
      "operators.ana.token_file: holds the same token as YARDMASTER_TOKEN",
    );
  });
});
