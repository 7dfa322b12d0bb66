// Event data over a real server, field by field as http-api.md "Events" reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runEvents, submitTo, untilEvent } from "../support/contract-kit.ts";
import { defaultToml, FLOWS, startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(
    defaultToml(
      ["late", "impatient"].map((w) => `[workflows.${w}]\ntarget = "${FLOWS}:${w}"\n`).join(""),
    ),
  );
});
afterAll(async () => {
  await s?.close();
});

const submit = (workflow: string, title: string) => submitTo(s, workflow, title);
const events = async (runId: string, name: string) =>
  (await runEvents(s, runId)).filter((e) => e.name === name);

/** Submits a run and answers once its first attempt is in flight. */
async function submitInFlight(workflow: string, title: string): Promise<string> {
  const runId = await submit(workflow, title);
  await eventually(
    async () => (await s.call("GET", `/api/runs/${runId}`)).body.current_nodes?.length === 1,
    `${workflow} in flight`,
  );
  return runId;
}

/**
 * A cancelled body wakes from its aborted sleep and carries on for a moment; a whole run of
 * another workflow, submitted after the cancel, completes well after that moment.
 */
async function afterStoppedBody(): Promise<void> {
  const next = await submit("chain", "after");
  await eventually(
    async () => (await s.call("GET", `/api/runs/${next}`)).body.status === "completed",
    "a later run completed",
  );
}

describe("log.appended", () => {
  it("previews the first 200 characters, counted as characters, not UTF-16 units", async () => {
    const runId = await submit("asker", "preview");
    const text = `${"🙂".repeat(150)}${"é".repeat(100)}`;
    const posted = await s.call("POST", `/api/runs/${runId}/log`, { text });
    expect(posted.status).toBe(200);
    const [appended] = (await events(runId, "log.appended")).filter(
      (e) => e.data.log_id === posted.body.log_id,
    );
    expect(appended.data).toEqual({
      author: "user",
      kind: null,
      log_id: posted.body.log_id,
      node: expect.any(String),
      preview: `${"🙂".repeat(150)}${"é".repeat(50)}`,
    });
    const log = await s.call("GET", `/api/runs/${runId}/log`);
    expect(log.body.at(-1).text).toBe(text);
  });
});

describe("a cancelled run", () => {
  it("ends with run.cancelled: the stopped body writes nothing more", async () => {
    const runId = await submitInFlight("chain", "sleep:400");
    const cancel = await s.call("POST", `/api/runs/${runId}/cancel`);
    expect(cancel.body).toEqual({ ok: true, note: "Stopped 1 attempt." });
    await afterStoppedBody();
    const all = await runEvents(s, runId);
    expect(all.at(-1)).toMatchObject({
      name: "run.cancelled",
      data: { cancelled_tasks: [expect.any(Number)] },
    });
    expect((await s.call("GET", `/api/runs/${runId}/log`)).body).toEqual([]);
  });
});

describe("a stopped attempt that asks", () => {
  it("opens no request: nothing is left to take its answer", async () => {
    const runId = await submitInFlight("late", "400");
    expect((await s.call("POST", `/api/runs/${runId}/cancel`)).status).toBe(200);
    await afterStoppedBody();
    expect((await s.call("GET", `/api/runs/${runId}/requests`)).body).toEqual([]);
    expect((await s.call("GET", `/api/requests?pending=true&run=${runId}`)).body).toEqual([]);
  });
});

describe("an attempt that stops waiting on its own", () => {
  it("ends with its body's value, and the request it left unanswered goes stale", async () => {
    const runId = await submit("impatient", "100");
    const completed = await untilEvent(s, runId, (e) => e.name === "run.completed");
    expect(completed.data).toMatchObject({ output: "no answer", node: "hurry" });
    const [task] = (await s.call("GET", `/api/runs/${runId}`)).body.tasks;
    expect(task).toMatchObject({ status: "done", attempt: 1, result: "no answer" });
    const [req] = (await s.call("GET", `/api/runs/${runId}/requests`)).body;
    expect(req).toMatchObject({ pending: false, stale: true });
    expect((await events(runId, "task.started")).length).toBe(1);
  });
});
