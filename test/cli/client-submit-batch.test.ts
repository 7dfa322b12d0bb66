// `yardmaster submit WORKFLOW --from-file runs.jsonl` against a real server: one run per line,
// in order; the whole file checked before anything is sent; batches of 1,000 each all or
// nothing, a refused one named by its file lines with what earlier batches queued.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { at } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;
let dir: string;

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
  dir = mkdtempSync(join(tmpdir(), "ym-cli-batch-"));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string, lines: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
};

const titles = async () =>
  ((await server.call("GET", "/api/runs")).body as Array<{ title: string }>).map((r) => r.title);

describe("yardmaster submit --from-file", () => {
  it("queues one run per line in order, printing each id, blank lines skipped", async () => {
    const before = await titles();
    const path = file("three.jsonl", [
      '{"title": "one"}',
      "",
      '{"title": "two", "description": "second"}',
      '{"title": "three", "input": {"n": 3}}',
    ]);
    const result = await ym("submit", "chain", "--from-file", path);
    expect(result.code).toBe(0);
    expect(result.lines).toHaveLength(3);
    for (const id of result.lines) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(result.err).toContain("Queued 3 runs of chain");
    expect(await titles()).toEqual([...before, "one", "two", "three"]);
    const second = await server.call("GET", `/api/runs/${result.lines[1]}`);
    expect(second.body.description).toBe("second");
    const json = await ym("submit", "chain", "--from-file", path, "--json");
    expect(JSON.parse(json.out)).toEqual([
      { run_id: expect.any(String) },
      { run_id: expect.any(String) },
      { run_id: expect.any(String) },
    ]);
  });

  it("sends nothing when a line is not a JSON object, naming the line", async () => {
    const before = await titles();
    const path = file("bad.jsonl", ['{"title": "a"}', "{not json", '{"title": "c"}']);
    const result = await ym("submit", "chain", "--from-file", path);
    expect(result.code).toBe(2);
    expect(result.err).toContain(`${path}:2: not JSON`);
    const arrayLine = file("array.jsonl", ['{"title": "a"}', "[1, 2]"]);
    const second = await ym("submit", "chain", "--from-file", arrayLine);
    expect(second.err).toContain(`${arrayLine}:2: expected a JSON object`);
    expect(await titles()).toEqual(before);
  });

  it("refuses --title and the other single-run options beside --from-file", async () => {
    const path = file("one.jsonl", ['{"title": "a"}']);
    const result = await ym("submit", "chain", "--from-file", path, "--title", "x", "--wait");
    expect(result.code).toBe(2);
    expect(result.err).toContain("drop --title, --wait");
  });

  it("stops at a refused batch: earlier batches stay queued, the refused one names its lines", async () => {
    const before = (await titles()).length;
    const lines = Array.from({ length: 1500 }, (_, i) =>
      JSON.stringify({ title: i === 1204 ? "" : `r${i + 1}` }),
    );
    const path = file("big.jsonl", lines);
    const result = await ym("submit", "chain", "--from-file", path);
    expect(result.code).toBe(1);
    expect(result.lines).toHaveLength(1000);
    expect(result.err).toContain(`lines 1001-1500 of ${path} were refused and none of them queued`);
    expect(result.err).toContain("1000 runs from earlier lines were queued");
    expect(result.err).toContain(`${path}:1205.title`);
    const after = await titles();
    expect(after).toHaveLength(before + 1000);
    expect(after.at(-1)).toBe("r1000");
  });
});
