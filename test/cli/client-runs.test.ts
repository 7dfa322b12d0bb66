// The run commands against a real server: runs, show, submit (with --wait), log, workflows,
// each in its human form and with --json.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { visible } from "../../src/cli/format/style.ts";
import { eventually, startTestServer, type TestServer } from "../support/server-harness.ts";
import { at, cli } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
});
afterAll(() => server.close());

async function completedRun(title: string, workflow = "chain"): Promise<string> {
  const result = await ym("submit", workflow, "--title", title, "--wait");
  expect(result.code).toBe(0);
  return result.lines.at(-1)!;
}

/** Waits until no run is queued or running, so two reads of the list can be compared. */
async function settled(): Promise<void> {
  await eventually(async () => {
    const runs = (await server.call("GET", "/api/runs")).body as Array<{ status: string }>;
    return runs.every((r) => r.status !== "queued" && r.status !== "running");
  }, "every run ended");
}

describe("yardmaster submit", () => {
  it("prints the new run's id as the only stdout line, or {run_id} with --json", async () => {
    const plain = await ym("submit", "chain", "--title", "plain");
    expect(plain.code).toBe(0);
    expect(plain.lines).toEqual([expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/)]);
    const json = await ym("submit", "chain", "--title", "json", "--json");
    const body = JSON.parse(json.out);
    expect(body).toEqual({ run_id: expect.any(String) });
    const run = await server.call("GET", `/api/runs/${body.run_id}`);
    expect(run.body.title).toBe("json");
  });

  it("--wait follows the run to completion, exits 0 and ends stdout with the id", async () => {
    const result = await ym("submit", "chain", "--title", "abcd", "--wait", "--description", "d");
    expect(result.code).toBe(0);
    const id = result.lines.at(-1)!;
    expect(result.err).toContain("run.completed");
    expect(result.err).toContain(`Run ${id} completed; output: 8`);
    const run = await server.call("GET", `/api/runs/${id}`);
    expect(run.body).toMatchObject({ status: "completed", output: 8, description: "d" });
  });

  it("--wait exits 1 for a run that fails, and --json then prints the final run", async () => {
    const result = await ym("submit", "chain", "--title", "fail", "--wait", "--json");
    expect(result.code).toBe(1);
    const detail = JSON.parse(result.out);
    expect(detail).toMatchObject({ status: "failed", title: "fail" });
    expect(detail.tasks[0]).toMatchObject({ status: "dead_letter", error: expect.any(String) });
  });

  it("--idempotency-key answers the first run again, and refuses the key with another title", async () => {
    const first = await ym("submit", "chain", "--title", "once", "--idempotency-key", "cli-key-1");
    expect(first.code).toBe(0);
    const again = await ym("submit", "chain", "--title", "once", "--idempotency-key", "cli-key-1");
    expect(again.code).toBe(0);
    expect(again.lines).toEqual(first.lines);
    const other = await ym("submit", "chain", "--title", "twice", "--idempotency-key", "cli-key-1");
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/different request body.*\[409 conflict\]$/);
  });

  it("sends --input as the run's input, and refuses input that is not JSON with exit 2", async () => {
    const runId = (
      await ym("submit", "chain", "--title", "with input", "--input", '{"n": 1}')
    ).lines.at(-1)!;
    expect((await server.call("GET", `/api/runs/${runId}`)).body.input).toStrictEqual({ n: 1 });
    const bad = await ym("submit", "chain", "--title", "x", "--input", "{n: 1}");
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--input is not valid JSON");
  });

  it("refuses a missing --title with exit 2 and an unknown workflow with exit 1", async () => {
    const usage = await ym("submit", "chain");
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("missing --title T");
    const empty = await ym("submit", "chain", "--title", "");
    expect(empty.code).toBe(2);
    expect(empty.err).toContain("--title T must not be empty");
    expect(empty.err).not.toContain("missing");
    const unknown = await ym("submit", "nosuch", "--title", "x");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^yardmaster submit: .*\[404 unknown_workflow\]$/);
  });
});

describe("yardmaster runs and show", () => {
  it("lists runs as an aligned table, filtered by status and workflow", async () => {
    const id = await completedRun("listed");
    const failed = await ym("submit", "chain", "--title", "fail", "--wait");
    const failedId = failed.lines.at(-1)!;
    const all = await ym("runs");
    expect(all.code).toBe(0);
    expect(all.lines[0]).toMatch(
      /^POS\s+RUN\s+STATUS\s+WORKFLOW\s+TITLE\s+NODES\s+ASKS\s+UPDATED$/,
    );
    const row = all.lines.find((l) => l.includes(id))!;
    expect(row).toMatch(/completed\s+chain\s+listed\s+-\s+-\s+(just now|\d+s ago)$/);
    // Aligned: every row puts the run id where the RUN header starts.
    const column = all.lines[0].indexOf("RUN");
    for (const line of all.lines.slice(1))
      expect(line.slice(column, column + 26)).toMatch(/^\w{26}$/);
    const onlyFailed = await ym("runs", "--status", "failed");
    expect(onlyFailed.out).toContain(failedId);
    expect(onlyFailed.out).not.toContain(id);
    expect((await ym("runs", "--workflow", "fan")).out).toBe("No runs.");
    // A name no workflow has is a mistake, not an empty list.
    const nope = await ym("runs", "--workflow", "nope");
    expect(nope.code).toBe(1);
    expect(nope.err).toMatch(/^yardmaster runs: .*\[404 unknown_workflow\]$/);
  });

  it("pages with --limit and --cursor, searches with --search", async () => {
    await completedRun("paged alpha");
    await completedRun("paged beta");
    await completedRun("paged gamma");
    const api = (await server.call("GET", "/api/runs?q=PAGED")).body as Array<{ id: string }>;
    expect(api).toHaveLength(3);
    const first = await ym("runs", "--search", "paged", "--limit", "2");
    expect(first.code).toBe(0);
    expect(first.lines.filter((l) => /^\s*\d+ /.test(l))).toHaveLength(2);
    const more = first.lines.at(-1)!;
    expect(more).toMatch(/^More: yardmaster runs --search paged --limit 2 --cursor \S+$/);
    const second = await ym(...more.slice("More: yardmaster ".length).split(" "));
    expect(second.out).toContain(api[2]!.id);
    expect(second.out).not.toContain(api[0]!.id);
    expect(second.out).not.toContain("More:");
    expect((await ym("runs", "--limit", "x")).code).not.toBe(0);
  });

  it("--json prints the API's run list unchanged", async () => {
    await completedRun("for json");
    await settled();
    const result = await ym("runs", "--json");
    const api = await server.call("GET", "/api/runs");
    expect(JSON.parse(result.out)).toEqual(api.body);
  });

  it("show prints the header fields, the output and the tasks table", async () => {
    const id = await completedRun("shown", "fan");
    await ym("submit", "fan", "--title", "a,b", "--wait");
    const result = await ym("show", id);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(`Run:      ${id}`);
    expect(result.out).toMatch(/^Status: +completed$/m);
    expect(result.out).toContain('Output:\n  "SHOWN"');
    expect(result.out).toMatch(/Tasks \(3\):\n +TASK +NODE +ATTEMPT +STATUS +TOOK +END +ERROR\n/);
    expect(result.out).toMatch(/#\d+ +gather +1 +done +[\d.]+s +yes/);
    const json = await ym("show", id, "--json");
    expect(JSON.parse(json.out)).toEqual((await server.call("GET", `/api/runs/${id}`)).body);
  });

  it("exits 1 with the API's code for a run that does not exist", async () => {
    const result = await ym("show", "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    expect(result.code).toBe(1);
    expect(result.out).toBe("");
    expect(result.err).toMatch(/^yardmaster show: .+ \[404 not_found\]$/);
  });
});

describe("yardmaster log and workflows", () => {
  it("prints the work log, writes an operator note, and --json prints the entries", async () => {
    const id = await completedRun("logged");
    const write = await ym("log", id, "--write", "checked by hand\nall good");
    expect(write.code).toBe(0);
    expect(write.out).toMatch(/^Log entry \d+ written to run /);
    const log = await ym("log", id);
    expect(log.out).toMatch(/\d\d:\d\d:\d\d {2}engine {2}first #\d+\n {4}first saw logged/);
    expect(log.out).toMatch(/user {2}user\n {4}checked by hand\n {4}all good$/);
    const json = JSON.parse((await ym("log", id, "--json")).out);
    expect(json.map((e: { author: string }) => e.author)).toEqual(["engine", "user"]);
  });

  it("lists the registered workflows with pool use and target", async () => {
    await settled();
    const result = await ym("workflows");
    expect(result.lines[0]).toMatch(/^WORKFLOW +START +NODES +POOL +SLOTS +TARGET$/);
    expect(result.out).toMatch(/^chain +first +3 +default +\d\/4 +\S+flows\.ts:chain$/m);
    expect(result.out).toMatch(/^fan +split +3 /m);
    const json = JSON.parse((await ym("workflows", "--json")).out);
    expect(json).toEqual((await server.call("GET", "/api/workflows")).body);
  });
});

describe("colours", () => {
  it("colours status words only on a terminal and never with NO_COLOR", async () => {
    await completedRun("colour");
    const env = { YARDMASTER_URL: server.url };
    const tty = await cli({ env, tty: true }, "runs");
    expect(tty.out).toContain("\x1b[32mcompleted\x1b[0m");
    const pipe = await cli({ env, tty: false }, "runs");
    expect(pipe.out).not.toContain("\x1b[");
    const noColour = await cli({ env: { ...env, NO_COLOR: "1" }, tty: true }, "runs");
    expect(noColour.out).not.toContain("\x1b[");
    // Colour codes do not disturb alignment: the columns line up as without them.
    expect(visible(tty.out)).toBe(pipe.out);
  });
});
