// Human input over real HTTP: a waiting task frees its slot, every answer mode and refusal,
// stale requests after cancel, and a server restart while a task waits.
import { afterEach, describe, expect, it } from "vitest";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

const ONE_SLOT = defaultToml().replace("capacity = 4", "capacity = 1");
let s: TestServer | undefined;
afterEach(async () => {
  await s?.close();
  s = undefined;
});

async function submit(workflow: string, title: string) {
  const r = await s!.call("POST", `/api/workflows/${workflow}/runs`, { title });
  return r.body.run_id as string;
}

const pendingOf = (runId: string) =>
  eventually(
    async () => (await s!.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0],
    "a pending request",
  );

const statusOf = async (runId: string) => (await s!.call("GET", `/api/runs/${runId}`)).body.status;

describe("human input over HTTP", () => {
  it("a waiting task frees the only slot for another run", async () => {
    s = await startTestServer(ONE_SLOT);
    const waiting = await submit("asker", "waits");
    const req = await pendingOf(waiting);
    const other = await submit("chain", "other");
    await eventually(async () => (await statusOf(other)) === "completed", "other run completed");
    const health = (await s.call("GET", "/api/health")).body;
    expect(health).toMatchObject({
      pools: { default: { capacity: 1, in_flight: 0 } },
      tasks_in_progress: 0,
    });
    const detail = (await s.call("GET", `/api/runs/${waiting}`)).body;
    expect(detail.tasks[0].status).toBe("waiting");
    await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
    await eventually(
      async () => (await statusOf(waiting)) === "completed",
      "waiting run completed",
    );
  });

  it("answers each mode and refuses what does not fit", async () => {
    s = await startTestServer();
    const runId = await submit("forms", "t");
    const text = await pendingOf(runId);
    expect(text).toMatchObject({ mode: "text", kind: "question", options: null, schema: null });
    expect(
      (await s.call("POST", `/api/requests/${text.id}/answer`, { option_id: "x" })).body.code,
    ).toBe("invalid_option");
    expect((await s.call("POST", `/api/requests/${text.id}/answer`, { value: "Ada" })).status).toBe(
      200,
    );
    const form = await eventually(async () => {
      const r = (await s!.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0];
      return r?.id !== text.id && r;
    }, "form request");
    expect(form).toMatchObject({ mode: "form", kind: "elicitation" });
    const misfit = await s.call("POST", `/api/requests/${form.id}/answer`, { value: { age: -1 } });
    expect(misfit.status).toBe(422);
    expect(misfit.body).toMatchObject({ code: "validation" });
    expect(misfit.body.errors[0].loc).toEqual(["body", "value", "age"]);
    const missing = await s.call("POST", `/api/requests/${form.id}/answer`, { value: {} });
    expect(missing.body.errors[0].loc).toEqual(["body", "value", "age"]);
    await s.call("POST", `/api/requests/${form.id}/answer`, { value: { age: 36 } });
    const options = await eventually(async () => {
      const r = (await s!.call("GET", `/api/requests?pending=true&run=${runId}`)).body[0];
      return r?.mode === "options" && r;
    }, "options request");
    expect(options.options).toEqual([
      { option_id: "yes", name: "Yes", kind: null },
      { option_id: "no", name: "no", kind: null },
    ]);
    expect(
      (await s.call("POST", `/api/requests/${options.id}/answer`, { value: "yes" })).body.code,
    ).toBe("invalid_option");
    await s.call("POST", `/api/requests/${options.id}/answer`, { option_id: "yes" });
    await eventually(async () => (await statusOf(runId)) === "completed", "completed");
    const run = (await s.call("GET", `/api/runs/${runId}`)).body;
    expect(run.output).toEqual({ name: "Ada", form: { age: 36 }, choice: "yes" });
    const history = (await s.call("GET", `/api/runs/${runId}/requests`)).body;
    expect(history.map((r: { answered_by: string }) => r.answered_by)).toEqual([
      "user",
      "user",
      "user",
    ]);
  });

  it("cancel makes the pending request stale: out of the inbox, no longer answerable", async () => {
    s = await startTestServer();
    const runId = await submit("asker", "t");
    const req = await pendingOf(runId);
    await s.call("POST", `/api/runs/${runId}/cancel`);
    expect((await s.call("GET", `/api/requests/${req.id}`)).body).toMatchObject({
      pending: false,
      stale: true,
    });
    expect((await s.call("GET", "/api/requests?pending=true")).body).toEqual([]);
    const all = (await s.call("GET", "/api/requests?pending=false")).body;
    expect(all.find((r: { id: number }) => r.id === req.id)).toMatchObject({ stale: true });
    const answer = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
    expect(answer.status).toBe(409);
    expect(answer.body.code).toBe("stale_request");
    expect((await s.call("GET", `/api/runs/${runId}`)).body.pending_requests).toBe(0);
  });

  it("a restart while waiting keeps the request answerable and asks nobody twice", async () => {
    s = await startTestServer();
    const runId = await submit("asker", "t");
    const req = await pendingOf(runId);
    const dir = s.dir;
    await s.stop();
    s = await startTestServer(defaultToml(), dir);
    expect((await s.call("GET", `/api/requests/${req.id}`)).body).toMatchObject({ pending: true });
    await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
    await eventually(
      async () => (await statusOf(runId)) === "completed",
      "completed after restart",
    );
    expect((await s.call("GET", `/api/runs/${runId}/requests`)).body).toHaveLength(1);
    const events = (await s.call("GET", `/api/runs/${runId}/events?limit=1000`)).body;
    const names = events.map((e: { name: string }) => e.name);
    expect(names.filter((n: string) => n === "request.opened")).toHaveLength(1);
    expect(names).toContain("task.resumed");
  });
});
