// The inbox and answer commands against a real server: the `asker` workflow waits on an
// options request until `yardmaster answer` resumes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, startTestServer, type TestServer } from "../support/server-harness.ts";
import { at, startCli } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
});
afterAll(() => server.close());

/** Submits an asker run and answers the id of the request it opens. */
async function askingRun(): Promise<{ runId: string; requestId: number }> {
  const runId = (await ym("submit", "asker", "--title", "ask me")).lines.at(-1)!;
  const request = await eventually(async () => {
    const open = (await server.call("GET", `/api/requests?pending=true&run=${runId}`)).body;
    return open[0] as { id: number } | undefined;
  }, "request opened");
  return { runId, requestId: request.id };
}

describe("yardmaster inbox", () => {
  it("says so when nothing waits", async () => {
    expect((await ym("inbox")).out).toBe("Inbox empty: nothing waits on a person.");
  });

  it("lists pending requests with how to answer each, and --json prints the API's list", async () => {
    const { runId, requestId } = await askingRun();
    const result = await ym("inbox");
    expect(result.lines[0]).toMatch(/^ID +AGE +RUN +TASK +KIND +PROMPT +ANSWER WITH$/);
    const row = result.lines.find((l) => l.includes(runId))!;
    expect(row).toMatch(
      new RegExp(
        `^ *${requestId} +\\d+s +ask me \\(${runId}\\) +decide #\\d+ +question +Proceed\\? +--option go\\|stop$`,
      ),
    );
    const json = JSON.parse((await ym("inbox", "--json")).out);
    const api = (await server.call("GET", "/api/requests?pending=true")).body;
    expect(json.map((r: { id: number }) => r.id)).toEqual(api.map((r: { id: number }) => r.id));
    expect(json.find((r: { id: number }) => r.id === requestId)).toMatchObject({
      mode: "options",
      options: [{ option_id: "go" }, { option_id: "stop" }],
    });
    const onlyThis = await ym("inbox", "--run", runId, "--json");
    expect(JSON.parse(onlyThis.out)).toHaveLength(1);
  });
});

describe("yardmaster answer", () => {
  it("answers an options request; the run resumes and completes with the choice", async () => {
    const { runId, requestId } = await askingRun();
    const result = await ym("answer", String(requestId), "--option", "go");
    expect(result).toMatchObject({ code: 0, out: `Request ${requestId} answered with "go".` });
    const run = await eventually(async () => {
      const body = (await server.call("GET", `/api/runs/${runId}`)).body;
      return body.status === "completed" && body;
    }, "run completed");
    expect(run.output).toBe("go");
    expect((await ym("inbox", "--run", runId)).out).toBe("Inbox empty: nothing waits on a person.");
  });

  it("prints the answered request with --json", async () => {
    const { requestId } = await askingRun();
    const result = await ym("answer", String(requestId), "--option", "stop", "--json");
    expect(JSON.parse(result.out)).toMatchObject({
      id: requestId,
      answer: "stop",
      answered_by: "user",
      pending: false,
    });
  });

  it("exits 1 with the API's code for a wrong option, a second answer and a mismatched mode", async () => {
    const { requestId } = await askingRun();
    const wrong = await ym("answer", String(requestId), "--option", "maybe");
    expect(wrong.code).toBe(1);
    const [refusal, hint] = wrong.err.split("\n");
    expect(refusal).toMatch(/^yardmaster answer: .+ \[422 invalid_option\]$/);
    // After the server's words, the flag this request takes.
    expect(hint).toBe(
      `yardmaster answer: request ${requestId} offers options: answer with --option ID (one of go, stop)`,
    );
    const text = await ym("answer", String(requestId), "--text", "go");
    expect(text.code).toBe(1);
    expect(text.err.split("\n")[0]).toMatch(/\[4\d\d \w+\]$/);
    expect(text.err).toContain("answer with --option ID");
    expect((await ym("answer", String(requestId), "--option", "go")).code).toBe(0);
    const twice = await ym("answer", String(requestId), "--option", "go");
    expect(twice.code).toBe(1);
    expect(twice.err).toContain("[409 already_answered]");
    const missing = await ym("answer", "999999", "--option", "go");
    expect(missing.err).toContain("[404 not_found]");
  });

  it("points a text answer given to a form at --value and the form's fields", async () => {
    const runId = (await ym("submit", "forms", "--title", "interview")).lines.at(-1)!;
    const pending = async () =>
      (await server.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0] as
        | { id: number; mode: string }
        | undefined;
    const text = await eventually(pending, "the text request");
    expect((await ym("answer", String(text.id), "--text", "Ada")).code).toBe(0);
    const form = await eventually(async () => {
      const open = await pending();
      return open?.mode === "form" ? open : undefined;
    }, "the form request");
    const listed = (await ym("inbox", "--run", runId)).lines.find((l) => l.includes(runId))!;
    expect(listed).toContain(`interview (${runId})`);
    expect(listed).toMatch(/--value \{age\}$/);
    const refused = await ym("answer", String(form.id), "--text", "42");
    expect(refused.code).toBe(1);
    const [refusal, hint] = refused.err.split("\n");
    expect(refusal).toMatch(/\[422 validation\]$/);
    expect(hint).toBe(
      `yardmaster answer: request ${form.id} is a form: answer with --value JSON, an object (fields: age)`,
    );
    expect((await ym("answer", String(form.id), "--value", '{"age": 42}')).code).toBe(0);
  });

  it("submit --wait prints what the run asks and the command that answers it", async () => {
    const waiting = startCli(
      { env: { YARDMASTER_URL: server.url } },
      "submit",
      "asker",
      "--title",
      "waits",
      "--wait",
    );
    const ask = await eventually(
      async () => waiting.err.find((line) => line.startsWith("  answer: ")),
      "the answer line under request.opened",
    );
    const opened = waiting.err.findIndex((line) => line.includes("request.opened"));
    expect(waiting.err[opened + 1]).toBe("  asks: Proceed?");
    const match = /^ {2}answer: yardmaster answer (\d+) --option go\|stop$/.exec(ask);
    expect(match).not.toBeNull();
    expect((await ym("answer", match![1], "--option", "go")).code).toBe(0);
    expect(await waiting.done).toBe(0);
  });

  it("refuses command lines that do not say one answer, with exit 2", async () => {
    const none = await ym("answer", "1");
    expect(none.code).toBe(2);
    expect(none.err).toContain("give exactly one of --option ID, --value JSON, --text STRING");
    expect((await ym("answer", "1", "--option", "a", "--text", "b")).code).toBe(2);
    const badJson = await ym("answer", "1", "--value", "{not json");
    expect(badJson.code).toBe(2);
    expect(badJson.err).toContain("--value is not valid JSON");
    expect((await ym("answer", "one", "--option", "a")).code).toBe(2);
  });
});
