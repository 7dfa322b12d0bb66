// `yardmaster runs delete|cancel|retry` against a real server: by ids and by filter, the
// counts of what was done and refused (exit 1 when something was refused), --json, --all, and
// the usage errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestServer, type TestServer } from "../support/server-harness.ts";
import { at } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
});
afterAll(() => server.close());

async function ended(title: string): Promise<string> {
  const result = await ym("submit", "chain", "--title", title, "--wait");
  return result.lines.at(-1)!;
}

describe("yardmaster runs delete|cancel|retry", () => {
  it("deletes by ids, printing done and refused counts and each refusal; exit 1 on a refusal", async () => {
    const a = await ended("abcd");
    const b = await ended("efgh");
    const result = await ym("runs", "delete", a, "nope", b);
    expect(result.code).toBe(1);
    expect(result.lines).toEqual([
      "Deleted 2 runs; refused 1.",
      '  nope: not_found: Run "nope" does not exist.',
    ]);
    expect((await server.call("GET", `/api/runs/${a}`)).status).toBe(404);
  });

  it("retries the failed runs of a filter, then deletes them by filter with --all and --json", async () => {
    const failed = [await ended("fail"), await ended("fail")];
    const retried = await ym("runs", "retry", "--status", "failed", "--workflow", "chain");
    expect(retried.code).toBe(0);
    expect(retried.lines).toEqual(["Retried the failed attempts of 2 runs; refused 0."]);
    await eventually(async () => {
      const runs = (await server.call("GET", "/api/runs?status=failed")).body as unknown[];
      return runs.length === 2;
    }, "both failed again");
    const deleted = await ym(
      "runs",
      "delete",
      "--workflow",
      "chain",
      "--limit",
      "1",
      "--all",
      "--json",
    );
    expect(deleted.code).toBe(0);
    const body = JSON.parse(deleted.out);
    expect(body).toMatchObject({ action: "delete", refused: [], more: false });
    expect(body.done_run_ids).toEqual(expect.arrayContaining(failed));
    expect((await server.call("GET", "/api/runs?workflow=chain")).body).toEqual([]);
  });

  it("cancel with a filter that matches nothing does nothing and exits 0", async () => {
    const result = await ym("runs", "cancel", "--workflow", "chain", "--before", "2000-01-01");
    expect(result).toMatchObject({ code: 0, lines: ["Cancelled 0 runs; refused 0."] });
  });

  it("refuses neither ids nor a filter, and both, as usage errors", async () => {
    expect((await ym("runs", "delete")).code).toBe(2);
    expect((await ym("runs", "delete", "x", "--status", "failed")).code).toBe(2);
    expect((await ym("runs", "retry", "--workflow", "chain", "--limit", "many")).code).toBe(2);
  });
});
