// The operator API (http-api.md: runs, tasks, the work log, errors, health), first over a
// `yardmaster serve` process driven over HTTP only, then over a server in the test's process
// on a real engine and a real SQLite file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { RunSummary } from "../../src/service/schemas/index.ts";
import {
  checkError,
  checkFields,
  checkType,
  LOG_ENTRY,
  RUN_DETAIL,
  RUN_STATUSES,
  RUN_SUMMARY,
  TASK_STATUSES,
  TASK_VIEW,
} from "../support/api-shapes.ts";
import { checkPositions, ended, suiteForFile } from "../support/operator-suite.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { release } from "../support/suite-flows.ts";
import { eventually } from "../support/wait.ts";

const s = suiteForFile();

const call = (method: string, path: string, body?: unknown) => s.server.call(method, path, body);
const inProgress = (runId: string, node: string) =>
  s.untilTask(runId, (t) => t.node === node && t.status === "in_progress", `${node} in progress`);

function checkDetail(run: any): void {
  checkFields(run, RUN_DETAIL, "RunDetail");
  expect(RUN_STATUSES).toContain(run.status);
  expect(run, "stats omitted when nothing measured").not.toHaveProperty("stats");
  for (const task of run.tasks ?? []) checkTask(task);
  const ids = (run.tasks ?? []).map((t: any) => t.id);
  expect(ids, "tasks oldest first").toEqual([...ids].sort((a: number, b: number) => a - b));
}

function checkTask(task: any): void {
  checkFields(task, TASK_VIEW, `TaskView ${task.id}`);
  expect(TASK_STATUSES).toContain(task.status);
  expect(task.attempt).toBeGreaterThanOrEqual(1);
  expect(task, "stats absent when nothing measured").not.toHaveProperty("stats");
  expect(JSON.stringify(task).toLowerCase(), "never a token").not.toContain("token");
}

describe("submission and run views", () => {
  it("completes a chain run; RunSummary, RunDetail and TaskDetail carry every field", async () => {
    const id = await s.submit("chain", "bob");
    const run = await s.untilRun(id, ended, "chain ends");
    checkDetail(run);
    expect(run).toMatchObject({
      id,
      workflow: "chain",
      title: "bob",
      status: "completed",
      description: "",
    });
    expect(run.output).toBe("HELLO, BOB!");
    const [intake, shout] = run.tasks;
    expect(intake).toMatchObject({ node: "intake", attempt: 1, status: "done", terminal: false });
    expect(intake.payload).toEqual({ title: "bob", description: "" });
    expect(shout).toMatchObject({
      node: "shout",
      status: "done",
      terminal: true,
      result: "HELLO, BOB!",
    });
    expect(run.outputs).toEqual([
      { node: "shout", task_id: shout.id, branch: [], value: "HELLO, BOB!" },
    ]);
    expect(run.current_nodes ?? []).toEqual([]);
    expect(run.pending_requests ?? 0).toBe(0);
    const detail = await s.task(shout.id);
    checkTask(detail);
    expect(detail.submissions).toEqual([]);
    const list = await checkPositions(s.server);
    const summary = list.find((r) => r.id === id);
    checkFields(summary, RUN_SUMMARY, "RunSummary");
    expect(summary).not.toHaveProperty("tasks");
    const names = (await s.stored(id)).map((e) => e.name);
    expect(names.indexOf("run.created")).toBe(0);
    expect(names.indexOf("run.started")).toBeGreaterThan(0);
    expect(names[names.length - 1]).toBe("run.completed");
  });

  it("filters the run list by status and workflow; a bad status is a validation failure", async () => {
    await s.submit("chain", "filtered");
    const done = (await call("GET", "/api/runs?status=completed")).body as any[];
    expect(done.length).toBeGreaterThan(0);
    expect(done.every((r) => r.status === "completed")).toBe(true);
    const chains = (await call("GET", "/api/runs?workflow=chain")).body as any[];
    expect(chains.length).toBeGreaterThan(0);
    expect(chains.every((r) => r.workflow === "chain")).toBe(true);
    checkError(await call("GET", "/api/runs?status=bogus"), 422, "validation");
  });

  it("a run is queued until its first claim, then running, then completed", async () => {
    const holder = await s.submit("gate", "holder");
    await inProgress(holder, "grip");
    const queued = await s.submit("gate", "queued");
    const created = await s.tap.waitFor(
      "run.created",
      (e) => e.run_id === queued && e.name === "run.created",
    );
    expect(created.data).toMatchObject({ title: "queued", workflow: "gate" });
    const waiting = await s.run(queued);
    expect(waiting.status).toBe("queued");
    expect(created.data.position).toBe(waiting.position);
    const holding = await s.run(holder);
    expect(holding.status).toBe("running");
    expect(holding.current_nodes).toEqual(["grip"]);
    release(s.server.dir, holder);
    release(s.server.dir, queued);
    const done = await s.untilRun(queued, ended, "queued run ends");
    expect(done.status).toBe("completed");
    const started = s.eventsOf(queued).find((e) => e.name === "run.started");
    expect(started?.data).toEqual({ node: "grip", task_id: done.tasks[0].id });
  });
});

describe("run operations", () => {
  it("pause, resume and cancel answer Ok, emit their events, and refuse the wrong status with 409", async () => {
    const holder = await s.submit("gate", "p-holder");
    await inProgress(holder, "grip");
    const a = await s.submit("gate", "p-a");
    const b = await s.submit("gate", "p-b");
    const pause = await call("POST", `/api/runs/${a}/pause`);
    expect(pause.status).toBe(200);
    expect(pause.body.ok).toBe(true);
    expect((await s.run(a)).status).toBe("paused");
    expect(
      (await s.tap.waitFor("run.paused", (e) => e.run_id === a && e.name === "run.paused")).data,
    ).toEqual({});
    checkError(await call("POST", `/api/runs/${a}/pause`), 409);
    checkError(await call("POST", `/api/runs/${b}/resume`), 409);
    expect((await call("POST", `/api/runs/${a}/resume`)).status).toBe(200);
    expect(
      (await s.tap.waitFor("run.resumed", (e) => e.run_id === a && e.name === "run.resumed")).data,
    ).toEqual({});
    expect((await s.run(a)).status).not.toBe("paused");
    const cancel = await call("POST", `/api/runs/${b}/cancel`);
    expect(cancel.status).toBe(200);
    expect(cancel.body.ok).toBe(true);
    const cancelled = await s.tap.waitFor(
      "run.cancelled",
      (e) => e.run_id === b && e.name === "run.cancelled",
    );
    const bTasks = (await s.run(b)).tasks.map((t: any) => t.id);
    expect(cancelled.data.cancelled_tasks).toEqual(bTasks);
    expect((await s.run(b)).status).toBe("cancelled");
    for (const op of ["cancel", "pause", "resume"])
      checkError(await call("POST", `/api/runs/${b}/${op}`), 409);
    // A running run: pause lets the in-flight attempt finish; its successor waits.
    expect((await call("POST", `/api/runs/${holder}/pause`)).status).toBe(200);
    release(s.server.dir, holder);
    const next = await s.untilTask(holder, (t) => t.node === "after", "successor enqueued");
    expect(next.status).toBe("ready");
    expect((await s.run(holder)).status).toBe("paused");
    await call("POST", `/api/runs/${holder}/resume`);
    release(s.server.dir, a); // the freed slot may have gone to `a` while the holder was paused
    expect((await s.untilRun(holder, ended, "holder ends")).output).toBe("p-holder");
    await s.untilRun(a, ended, "a ends");
  });

  it("cancel of a running run stops its attempt and names the count in Ok.note", async () => {
    const id = await s.submit("hold", "to-cancel");
    const grip = await inProgress(id, "grip");
    const reply = await call("POST", `/api/runs/${id}/cancel`);
    expect(reply.status).toBe(200);
    expect(reply.body.note).toMatch(/1/);
    const ev = await s.tap.waitFor(
      "task.cancelled",
      (e) => e.task_id === grip.id && e.name === "task.cancelled",
    );
    expect(ev.data).toEqual({ from: "in_progress", node: "grip", reason: "cancel" });
    const run = await s.untilRun(id, (r) => r.status === "cancelled", "cancelled");
    expect(run.tasks[0].status).toBe("cancelled");
    checkError(await call("POST", `/api/runs/${id}/cancel`), 409);
  });

  it("PATCH writes the named fields, emits only what changed, and never rewrites the start payload", async () => {
    const id = await s.submit("chain", "before", "desc");
    await s.untilRun(id, ended, "chain ends");
    const edited = await call("PATCH", `/api/runs/${id}`, { title: "after" });
    expect(edited.status).toBe(200);
    checkDetail(edited.body);
    expect(edited.body).toMatchObject({ title: "after", description: "desc" });
    const ev = await s.tap.waitFor(
      "run.updated",
      (e) => e.run_id === id && e.name === "run.updated",
    );
    expect(ev.data).toEqual({ changed: { title: "after" } });
    expect((await call("PATCH", `/api/runs/${id}`, {})).body).toMatchObject({
      title: "after",
      description: "desc",
    });
    expect(
      (await call("PATCH", `/api/runs/${id}`, { title: null, description: "d2" })).body,
    ).toMatchObject({
      title: "after",
      description: "d2",
    });
    checkError(await call("PATCH", `/api/runs/${id}`, { title: "" }), 422, "validation");
    expect((await s.run(id)).tasks[0].payload).toEqual({ title: "before", description: "desc" });
  });

  it("DELETE cancels what is outstanding, answers 204 empty, and run.deleted is live only", async () => {
    const id = await s.submit("hold", "doomed");
    const grip = await inProgress(id, "grip");
    const before = s.tap.events().at(-1)?.id ?? 0;
    const reply = await call("DELETE", `/api/runs/${id}`);
    expect(reply.status).toBe(204);
    expect(reply.text).toBe("");
    const cancelled = await s.tap.waitFor(
      "task.cancelled",
      (e) => e.task_id === grip.id && e.name === "task.cancelled",
    );
    expect(cancelled.data.reason).toBe("delete");
    const deleted = await s.tap.waitFor(
      "run.deleted",
      (e) => e.run_id === id && e.name === "run.deleted",
    );
    expect(deleted.data).toEqual({ title: "doomed", workflow: "hold" });
    expect(deleted.id ?? null).toBeNull();
    checkError(await call("GET", `/api/runs/${id}`), 404, "not_found");
    checkError(await call("DELETE", `/api/runs/${id}`), 404, "not_found");
    const frame = s.tap.frames().find((f) => f.event === "run.deleted" && f.data?.includes(id));
    expect(frame?.id, "run.deleted is not stored, so it has no id:").toBeUndefined();
    expect(before).toBeGreaterThan(0);
  });

  it("position: direction swaps, index moves and clamps, answers are 1-based, exactly one of the two", async () => {
    const holder = await s.submit("gate", "pos-holder");
    await inProgress(holder, "grip");
    const [a, b, c] = [
      await s.submit("gate", "pa"),
      await s.submit("gate", "pb"),
      await s.submit("gate", "pc"),
    ];
    let list = await checkPositions(s.server);
    const n = list.length;
    expect(list.at(-1).id).toBe(c);
    const pos = async (id: string, body: unknown) => call("POST", `/api/runs/${id}/position`, body);
    const up = await pos(c, { direction: -1 });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ position: n - 1 });
    const reordered = await s.tap.waitFor(
      "run.reordered",
      (e) => e.run_id === c && e.name === "run.reordered",
    );
    expect(reordered.data).toEqual({ position: n - 1, previous: n });
    list = await checkPositions(s.server);
    expect(list.slice(-3).map((r) => r.id)).toEqual([a, c, b]);
    expect((await pos(b, { direction: 1 })).body).toEqual({ position: n });
    expect((await pos(list[0].id, { direction: -1 })).body).toEqual({ position: 1 });
    expect((await pos(a, { index: 0 })).body).toEqual({ position: 1 });
    expect((await checkPositions(s.server))[0].id).toBe(a);
    expect((await pos(a, { index: 10_000 })).body).toEqual({ position: n });
    expect((await pos(a, { index: -5 })).body).toEqual({ position: 1 });
    await checkPositions(s.server);
    checkError(await pos(a, {}), 422, "validation");
    checkError(await pos(a, { direction: 1, index: 0 }), 422, "validation");
    checkError(await pos(a, { direction: 2 }), 422, "validation");
    for (const id of [holder, a, b, c]) release(s.server.dir, id);
    for (const id of [holder, a, b, c]) await s.untilRun(id, ended, "positioned run ends");
  });

  it("the scheduler claims in position order", async () => {
    const holder = await s.submit("gate", "order-holder");
    await inProgress(holder, "grip");
    const [a, b] = [await s.submit("gate", "oa"), await s.submit("gate", "ob")];
    expect((await call("POST", `/api/runs/${b}/position`, { index: 0 })).body).toEqual({
      position: 1,
    });
    release(s.server.dir, holder);
    await inProgress(b, "grip");
    expect((await s.run(a)).status).toBe("queued");
    for (const id of [a, b]) release(s.server.dir, id);
    for (const id of [holder, a, b]) await s.untilRun(id, ended, "ordered run ends");
  });
});

describe("task operations", () => {
  it("retry is 409 while going; move cancels and re-enqueues; retry of a stopped task keeps its place", async () => {
    const id = await s.submit("hold", "mover");
    const grip = await inProgress(id, "grip");
    checkError(await call("POST", `/api/tasks/${grip.id}/retry`), 409, "conflict");
    checkError(
      await call("POST", `/api/tasks/${grip.id}/status`, { status: "done" }),
      422,
      "validation",
    );
    const bad = await call("POST", `/api/tasks/${grip.id}/move`, { node: "nowhere" });
    expect(bad.body?.code).toBe("unknown_node");
    checkError(await call("POST", `/api/tasks/${grip.id}/move`, {}), 422, "validation");
    const moved = await call("POST", `/api/tasks/${grip.id}/move`, { node: "after" });
    expect(moved.status).toBe(200);
    checkType(moved.body.task_id, "int", "TaskRef.task_id");
    const evMoved = await s.tap.waitFor(
      "task.moved",
      (e) => e.task_id === grip.id && e.name === "task.moved",
    );
    expect(evMoved.data).toEqual({ new_task_id: moved.body.task_id, node: "grip", to: "after" });
    const evCancel = s
      .eventsOf(id)
      .find((e) => e.name === "task.cancelled" && e.task_id === grip.id);
    expect(evCancel?.data).toEqual({ from: "in_progress", node: "grip", reason: "move" });
    const run = await s.untilRun(id, ended, "moved run ends");
    expect(run.output).toEqual({ title: "mover", description: "" });
    const retry = await call("POST", `/api/tasks/${grip.id}/retry`);
    expect(retry.status).toBe(200);
    const again = await s.task(retry.body.task_id);
    expect(again).toMatchObject({
      node: "grip",
      attempt: 2,
      payload: grip.payload,
      created: grip.created,
    });
    expect(again.branch ?? []).toEqual(grip.branch ?? []);
    const enq = await s.tap.waitFor(
      "manual_retry",
      (e) => e.task_id === again.id && e.name === "task.enqueued",
    );
    expect(enq.data.reason).toBe("manual_retry");
    const set = await call("POST", `/api/tasks/${again.id}/status`, { status: "cancelled" });
    expect(set.status).toBe(200);
    expect(set.body.ok).toBe(true);
    const evSet = await s.tap.waitFor(
      "status_set",
      (e) => e.task_id === again.id && e.name === "task.status_set",
    );
    expect(evSet.data).toMatchObject({ node: "grip", to: "cancelled" });
    const evC = await s.tap.waitFor(
      "set_status cancel",
      (e) => e.task_id === again.id && e.name === "task.cancelled",
    );
    expect(evC.data.reason).toBe("set_status");
    expect((await s.task(again.id)).status).toBe("cancelled");
    await call("POST", `/api/tasks/${again.id}/status`, { status: "dead_letter" });
    expect((await s.task(again.id)).status).toBe("dead_letter");
    expect((await call("POST", `/api/tasks/${again.id}/status`, { status: "ready" })).status).toBe(
      200,
    );
    release(s.server.dir, id);
    await eventually(
      async () => (await s.task(again.id)).status === "done",
      "re-dispatched task done",
    );
  });

  it("rerun enqueues a fresh attempt with the node's last payload; move into a join is 409", async () => {
    const id = await s.submit("chain", "again");
    const run = await s.untilRun(id, ended, "chain ends");
    const rerun = await call("POST", `/api/runs/${id}/rerun`, { node: "shout" });
    expect(rerun.status).toBe(200);
    const fresh = await s.task(rerun.body.task_id);
    expect(fresh).toMatchObject({ node: "shout", payload: { name: "again" } });
    const enq = await s.tap.waitFor(
      "rerun",
      (e) => e.task_id === fresh.id && e.name === "task.enqueued",
    );
    expect(enq.data.reason).toBe("rerun");
    expect((await call("POST", `/api/runs/${id}/rerun`, { node: "nowhere" })).body?.code).toBe(
      "unknown_node",
    );
    checkError(await call("POST", `/api/runs/${id}/rerun`, {}), 422, "validation");
    const fan = await s.submit("fan", "j");
    const fanned = await s.untilRun(fan, ended, "fan ends");
    checkError(
      await call("POST", `/api/tasks/${fanned.tasks[1].id}/move`, { node: "gather" }),
      409,
      "conflict",
    );
    expect(run.status).toBe("completed");
  });
});

describe("work log", () => {
  it("an operator note goes under the one node in flight, else under `user`; preview is 200 characters", async () => {
    const id = await s.submit("hold", "logged");
    const grip = await inProgress(id, "grip");
    const text = "x".repeat(300);
    const wrote = await call("POST", `/api/runs/${id}/log`, { text });
    expect(wrote.status).toBe(200);
    expect(Object.keys(wrote.body)).toEqual(["log_id"]);
    const ev = await s.tap.waitFor("log.appended", (e) => e.data.log_id === wrote.body.log_id);
    expect(ev.data).toMatchObject({ author: "user", node: "grip", preview: "x".repeat(200) });
    release(s.server.dir, id);
    await s.untilRun(id, ended, "logged run ends");
    const late = await call("POST", `/api/runs/${id}/log`, { text: "after the end" });
    checkError(await call("POST", `/api/runs/${id}/log`, { text: "" }), 422, "validation");
    const log = (await call("GET", `/api/runs/${id}/log`)).body as any[];
    for (const entry of log) checkFields(entry, LOG_ENTRY, "LogEntry");
    const mine = log.find((e) => e.id === wrote.body.log_id);
    expect(mine).toMatchObject({ run_id: id, node: "grip", author: "user", text });
    expect(log.find((e) => e.id === late.body.log_id)).toMatchObject({
      node: "user",
      author: "user",
    });
    expect(grip.node).toBe("grip");
    const chain = await s.submit("chain", "eng");
    await s.untilRun(chain, ended, "chain ends");
    const [entry] = (await call("GET", `/api/runs/${chain}/log`)).body;
    expect(entry).toMatchObject({ node: "shout", author: "engine", text: "greeting eng" });
    checkType(entry.task_id, "int", "engine entry task_id");
  });
});

describe("errors, health and me", () => {
  it("answers the Errors table: validation, malformed JSON, oversize bodies, missing resources", async () => {
    const bad = await call("POST", "/api/workflows/chain/runs", {});
    checkError(bad, 422, "validation");
    expect(bad.body.errors.some((e: any) => e.loc.includes("title"))).toBe(true);
    checkError(await call("POST", "/api/workflows/chain/runs", { title: "" }), 422, "validation");
    checkError(await call("POST", "/api/workflows/chain/runs", { title: 5 }), 422, "validation");
    const malformed = await call("POST", "/api/workflows/chain/runs", "{not json");
    expect(malformed.status).toBe(400);
    checkError(malformed, 400);
    const big = JSON.stringify({ title: "big", description: "a".repeat(1_100_000) });
    checkError(await call("POST", "/api/workflows/chain/runs", big), 413, "payload_too_large");
    checkError(
      await streamed(`${s.server.url}/api/workflows/chain/runs`, big),
      413,
      "payload_too_large",
    );
    checkError(
      await call("POST", "/api/workflows/nope/runs", { title: "x" }),
      404,
      "unknown_workflow",
    );
    checkError(await call("GET", "/api/workflows/nope"), 404, "unknown_workflow");
    const ghost = "01ARZ3NDEKTSV4RRFFQ69G5FAV";
    for (const path of [
      `/api/runs/${ghost}`,
      `/api/runs/${ghost}/log`,
      `/api/runs/${ghost}/events`,
    ]) {
      checkError(await call("GET", path), 404, "not_found");
    }
    checkError(await call("POST", `/api/runs/${ghost}/cancel`), 404, "not_found");
    checkError(await call("GET", "/api/tasks/987654321"), 404, "not_found");
    checkError(await call("POST", "/api/tasks/987654321/retry"), 404, "not_found");
    checkError(await call("GET", "/api/requests/987654321"), 404, "not_found");
  });

  it("Health and Me carry their fields", async () => {
    const health = (await call("GET", "/api/health")).body;
    checkFields(
      health,
      { ok: "bool", version: "str", pools: "obj", runs_running: "int", tasks_in_progress: "int" },
      "Health",
    );
    expect(health.ok).toBe(true);
    expect(health.pools.narrow).toEqual({ capacity: 1, in_flight: expect.any(Number) });
    expect(JSON.stringify(health)).not.toMatch(/"id"|run_id|task_id/);
    const me = (await call("GET", "/api/me")).body;
    checkFields(
      me,
      { auth: "str", authenticated: "bool", version: "str", started_at: "date" },
      "Me",
    );
    expect(me).toMatchObject({
      auth: "off",
      authenticated: true,
      version: health.version,
      features: [],
    });
  });
});

async function streamed(url: string, body: string) {
  const bytes = new TextEncoder().encode(body);
  const stream = new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 65_536)
        controller.enqueue(bytes.slice(at, at + 65_536));
      controller.close();
    },
  });
  const init = {
    method: "POST",
    body: stream,
    duplex: "half",
    headers: { "content-type": "application/json" },
  };
  const res = await fetch(url, init as RequestInit);
  expect(res.headers.get("content-length") === null || res.status === 413).toBe(true);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

describe("over a server in the test's process", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

  async function runUntil(runId: string, statuses: string[]) {
    return eventually(async () => {
      const r = await s.call("GET", `/api/runs/${runId}`);
      return statuses.includes(r.body.status) && r.body;
    }, `run ${runId} in ${statuses}`);
  }

  async function submit(workflow: string, title: string, description?: string) {
    const r = await s.call("POST", `/api/workflows/${workflow}/runs`, { title, description });
    expect(r.status).toBe(201);
    return r.body.run_id as string;
  }

  describe("health, me, workflows", () => {
    it("health reports pools and counts without ids", async () => {
      const r = await s.call("GET", "/api/health");
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, pools: { default: { capacity: 4 } } });
      expect(typeof r.body.version).toBe("string");
      expect(typeof r.body.runs_running).toBe("number");
      expect(typeof r.body.tasks_in_progress).toBe("number");
    });

    it("me on a loopback bind is auth off and authenticated", async () => {
      const r = await s.call("GET", "/api/me");
      expect(r.body).toMatchObject({ auth: "off", authenticated: true, features: [] });
      expect(r.body.started_at).toMatch(ISO);
    });

    it("lists and shows workflows with their finalized graphs", async () => {
      const list = await s.call("GET", "/api/workflows");
      expect(list.body.map((w: { name: string }) => w.name)).toEqual([
        "asker",
        "chain",
        "fan",
        "forms",
      ]);
      const chain = await s.call("GET", "/api/workflows/chain");
      expect(chain.body).toMatchObject({
        name: "chain",
        start: "first",
        pool: "default",
        capacity: 4,
        plugin: { actions: [], panels: [] },
      });
      expect(chain.body.nodes.first).toEqual({
        edges: ["second"],
        generation: 0,
        label: "first",
        description: 'Title "sleep:<ms>" holds the first node that long; "fail" dead-letters it.',
        priority: null,
        retries: null,
        timeout: null,
      });
      const missing = await s.call("GET", "/api/workflows/nope");
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe("unknown_workflow");
    });
  });

  describe("runs", () => {
    it("submits, completes, and shows the detail field by field", async () => {
      const runId = await submit("chain", "hello", "desc");
      expect(runId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
      const run = await runUntil(runId, ["completed"]);
      expect(run).toMatchObject({
        id: runId,
        workflow: "chain",
        title: "hello",
        description: "desc",
        status: "completed",
        output: 10,
        current_nodes: [],
        pending_requests: 0,
      });
      expect(run.created).toMatch(ISO);
      expect(run.tasks.map((t: { node: string }) => t.node)).toEqual(["first", "second", "third"]);
      expect(run.tasks[0]).toMatchObject({
        attempt: 1,
        status: "done",
        explicit: false,
        terminal: false,
        branch: [],
      });
      expect(run.tasks[0].payload).toEqual({ title: "hello", description: "desc" });
      expect(JSON.stringify(run)).not.toMatch(/token/i);
      const task = await s.call("GET", `/api/tasks/${run.tasks[2].id}`);
      expect(task.body).toMatchObject({
        node: "third",
        terminal: true,
        result: 10,
        submissions: [],
      });
      const events = await s.call("GET", `/api/runs/${runId}/events?limit=3`);
      expect(events.body.map((e: { name: string }) => e.name)).toEqual([
        "run.created",
        "task.enqueued",
        "run.started",
      ]);
      const next = await s.call(
        "GET",
        `/api/runs/${runId}/events?after=${events.body[2].id}&limit=2`,
      );
      expect(next.body[0].name).toBe("task.started");
      expect(next.body[0]).toMatchObject({ run_id: runId, data: { attempt: 1, node: "first" } });
      const log = await s.call("GET", `/api/runs/${runId}/log`);
      expect(log.body[0]).toMatchObject({
        node: "first",
        author: "engine",
        text: "first saw hello",
      });
      const graph = await s.call("GET", `/api/runs/${runId}/graph`);
      expect(graph.body.edges).toEqual([
        { from: "first", to: "second", kind: "forward", traversed: 1 },
        { from: "second", to: "third", kind: "forward", traversed: 1 },
      ]);
      expect(graph.body.nodes[0]).toMatchObject({
        name: "first",
        state: "done",
        live: true,
        attempts: 1,
        join: false,
      });
    });

    it("filters the run list by status and workflow, in position order", async () => {
      const a = await submit("fan", "a,b");
      await runUntil(a, ["completed"]);
      const fans = await s.call("GET", "/api/runs?workflow=fan");
      expect(fans.body.every((r: { workflow: string }) => r.workflow === "fan")).toBe(true);
      const done = await s.call("GET", "/api/runs?status=completed");
      expect(done.body.every((r: { status: string }) => r.status === "completed")).toBe(true);
      const all = await s.call("GET", "/api/runs");
      const positions = all.body.map((r: { position: number }) => r.position);
      expect(positions).toEqual(positions.map((_: number, i: number) => i + 1));
      const bad = await s.call("GET", "/api/runs?status=bogus");
      expect(bad.status).toBe(422);
      expect(bad.body.code).toBe("validation");
      expect(bad.body.errors[0].loc).toEqual(["query", "status"]);
    });

    it("patch, cancel with note, 409 on a second cancel, delete with 204", async () => {
      const runId = await submit("chain", "sleep:5000");
      await eventually(
        async () => (await s.call("GET", `/api/runs/${runId}`)).body.status === "running",
        "running",
      );
      const patched = await s.call("PATCH", `/api/runs/${runId}`, { title: "renamed" });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({ title: "renamed", id: runId });
      const cancel = await s.call("POST", `/api/runs/${runId}/cancel`);
      expect(cancel.body).toEqual({ ok: true, note: "Stopped 1 attempt." });
      const again = await s.call("POST", `/api/runs/${runId}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.code).toBe("conflict");
      const pause = await s.call("POST", `/api/runs/${runId}/pause`);
      expect(pause.status).toBe(409);
      const del = await s.call("DELETE", `/api/runs/${runId}`);
      expect(del.status).toBe(204);
      expect((await s.call("GET", `/api/runs/${runId}`)).status).toBe(404);
    });

    it("pause and resume answer Ok and refuse wrong statuses", async () => {
      const runId = await submit("asker", "t");
      expect((await s.call("POST", `/api/runs/${runId}/resume`)).status).toBe(409);
      expect((await s.call("POST", `/api/runs/${runId}/pause`)).body).toEqual({ ok: true });
      expect((await s.call("POST", `/api/runs/${runId}/resume`)).body).toEqual({ ok: true });
      await s.call("POST", `/api/runs/${runId}/cancel`);
    });

    it("position accepts exactly one of direction and index", async () => {
      const runId = await submit("asker", "pos");
      const neither = await s.call("POST", `/api/runs/${runId}/position`, {});
      expect(neither.status).toBe(422);
      const both = await s.call("POST", `/api/runs/${runId}/position`, { direction: 1, index: 0 });
      expect(both.status).toBe(422);
      const top = await s.call("POST", `/api/runs/${runId}/position`, { index: 0 });
      expect(top.body).toEqual({ position: 1 });
      const up = await s.call("POST", `/api/runs/${runId}/position`, { direction: -1 });
      expect(up.body).toEqual({ position: 1 });
      const bad = await s.call("POST", `/api/runs/${runId}/position`, { direction: 2 });
      expect(bad.status).toBe(422);
      await s.call("POST", `/api/runs/${runId}/cancel`);
    });
  });

  describe("tasks and requests", () => {
    it("answers a node's question from the inbox and resumes the run", async () => {
      const runId = await submit("asker", "ask me");
      const req = await eventually(async () => {
        const list = await s.call("GET", `/api/requests?pending=true&run=${runId}`);
        return list.body[0];
      }, "pending request");
      expect(req).toMatchObject({
        run_id: runId,
        node: "decide",
        kind: "question",
        mode: "options",
        source: "node",
        prompt: "Proceed?",
        pending: true,
        stale: false,
        answered_by: null,
      });
      expect(typeof req.age).toBe("number");
      const list = (await s.call("GET", "/api/runs")).body;
      // The list is sent without response validation (its size): it must fit the schema anyway.
      expect(() => z.array(RunSummary).parse(list)).not.toThrow();
      const summary = list.find((r: { id: string }) => r.id === runId);
      expect(summary).toMatchObject({ pending_requests: 1, current_nodes: ["decide"] });
      const wrong = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "maybe" });
      expect(wrong.body.code).toBe("invalid_option");
      const ok = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        id: req.id,
        answer: "go",
        answered_by: "user",
        pending: false,
      });
      const twice = await s.call("POST", `/api/requests/${req.id}/answer`, { option_id: "go" });
      expect(twice.body.code).toBe("already_answered");
      const run = await runUntil(runId, ["completed"]);
      expect(run.output).toBe("go");
      const history = await s.call("GET", `/api/runs/${runId}/requests`);
      expect(history.body).toHaveLength(1);
      expect((await s.call("GET", "/api/requests/999999")).status).toBe(404);
      expect((await s.call("GET", "/api/requests?run=nope")).body).toEqual([]);
    });

    it("retry, move, rerun and set status through HTTP", async () => {
      const runId = await submit("chain", "fail");
      const failed = await runUntil(runId, ["failed"]);
      const dead = failed.tasks[0];
      expect(dead.status).toBe("dead_letter");
      const moved = await s.call("POST", `/api/tasks/${dead.id}/move`, { node: "third" });
      expect(moved.status).toBe(200);
      expect(typeof moved.body.task_id).toBe("number");
      const done = await runUntil(runId, ["completed"]);
      expect(done.tasks.map((t: { node: string }) => t.node)).toEqual(["first", "third"]);
      expect(done.tasks[1].lineage).toMatchObject({ reason: "move", parent: dead.id });
      const rerun = await s.call("POST", `/api/runs/${runId}/rerun`, { node: "third" });
      expect(rerun.status).toBe(200);
      const unknown = await s.call("POST", `/api/runs/${runId}/rerun`, { node: "zzz" });
      expect(unknown.status).toBe(404);
      expect(unknown.body.code).toBe("unknown_node");
      const retry = await s.call("POST", `/api/tasks/${dead.id}/retry`);
      expect(retry.status).toBe(200);
      const status = await s.call("POST", `/api/tasks/${dead.id}/status`, { status: "done" });
      expect(status.status).toBe(422);
      const setOk = await s.call("POST", `/api/tasks/${dead.id}/status`, { status: "cancelled" });
      expect(setOk.body).toEqual({ ok: true });
      const stream = await s.call("GET", `/api/tasks/${dead.id}/stream`);
      expect(stream.body).toEqual({ chunks: [], last_seq: 0, live: false });
      expect((await s.call("GET", "/api/tasks/987654")).status).toBe(404);
      expect((await s.call("GET", "/api/tasks/abc")).status).toBe(422);
    });
  });
});
