// Operator operations: edit, cancel, delete, rerun, move, retry, set status, operator log.
import { afterEach, describe, expect, it } from "vitest";
import { type Arrival, NonRetryable, workflow } from "../../src/authoring/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function blocking(name: string) {
  const hold = gate();
  let aborted = 0;
  const wf = workflow(name);
  wf.node({ start: true }, async function a({ b }: any, input: unknown, ctx: any) {
    ctx.signal.addEventListener("abort", () => {
      aborted += 1;
    });
    await hold.promise;
    return b(input);
  });
  wf.node(async function b({}: any, input: unknown) {
    return input;
  });
  return { wf, hold, aborted: () => aborted };
}

describe("run operations", () => {
  it("edit writes only named fields and announces what changed", async () => {
    h = await startHarness();
    const { wf, hold } = blocking("edits");
    h.register(wf);
    const { run_id } = await h.service.submitRun("edits", { title: "old", description: "d" });
    const detail = await h.service.editRun(run_id, { title: "new" });
    expect(detail).toMatchObject({ title: "new", description: "d" });
    await h.service.editRun(run_id, {});
    expect(h.named("run.updated", run_id).map((e) => e.data)).toEqual([
      { changed: { title: "new" } },
    ]);
    hold.open();
    // the start payload is not rewritten by the edit
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect((await h.service.getRun(run_id)).output).toEqual({ title: "old", description: "d" });
  });

  it("cancel stops the live attempt, counts it, and refuses a second cancel", async () => {
    h = await startHarness();
    const { wf, aborted } = blocking("cancels");
    h.register(wf);
    const { run_id } = await h.service.submitRun("cancels", { title: "t" });
    const started = await h.waitEvent("task.started", (e) => e.run_id === run_id);
    const ok = await h.service.cancelRun(run_id);
    expect(ok).toEqual({ ok: true, note: "Stopped 1 attempt." });
    await h.waitFor(() => aborted() === 1, "body aborted");
    expect(h.named("run.cancelled", run_id)[0].data).toEqual({
      cancelled_tasks: [started.task_id],
    });
    expect(h.named("task.cancelled", run_id)[0].data).toEqual({
      from: "in_progress",
      node: "a",
      reason: "cancel",
    });
    const run = await h.service.getRun(run_id);
    expect(run.status).toBe("cancelled");
    expect(run.tasks![0].status).toBe("cancelled");
    await expect(h.service.cancelRun(run_id)).rejects.toMatchObject({
      code: "conflict",
      status: 409,
    });
    await h.waitFor(() => h.engine.registry.pools.get("default")!.inFlight === 0, "slot freed");
  });

  it("delete kills the attempt, removes the run and announces run.deleted", async () => {
    h = await startHarness();
    const { wf, aborted } = blocking("deletes");
    h.register(wf);
    const { run_id } = await h.service.submitRun("deletes", { title: "gone" });
    await h.waitEvent("task.started", (e) => e.run_id === run_id);
    await h.service.deleteRun(run_id);
    await h.waitFor(() => aborted() === 1, "body aborted");
    await expect(h.service.getRun(run_id)).rejects.toMatchObject({ code: "not_found" });
    const deleted = h.named("run.deleted", run_id);
    expect(deleted[0]).toMatchObject({ id: null, data: { title: "gone", workflow: "deletes" } });
    expect(h.named("task.cancelled", run_id)[0].data.reason).toBe("delete");
    expect(await h.store.listEvents({ run_id })).toEqual([]);
  });

  it("operator notes go under the one in-flight node, else under user", async () => {
    h = await startHarness();
    const { wf, hold } = blocking("notes");
    h.register(wf);
    const { run_id } = await h.service.submitRun("notes", { title: "t" });
    await h.waitEvent("task.started", (e) => e.run_id === run_id);
    const { log_id } = await h.service.appendRunLog(run_id, { text: "x".repeat(300) });
    hold.open();
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    await h.service.appendRunLog(run_id, { text: "after" });
    const log = await h.service.runLog(run_id);
    expect(log.map((e) => [e.node, e.author, e.text.length])).toEqual([
      ["a", "user", 300],
      ["user", "user", 5],
    ]);
    const appended = h.named("log.appended", run_id).find((e) => e.data.log_id === log_id)!;
    expect(appended.data).toMatchObject({ author: "user", kind: null, node: "a" });
    expect(String(appended.data.preview)).toHaveLength(200);
  });
});

describe("task operations", () => {
  it("retry of a dead-lettered task re-opens the run and keeps created", async () => {
    h = await startHarness();
    let fail = true;
    const wf = workflow("retryable");
    wf.node({ start: true }, async function a() {
      if (fail) throw new NonRetryable("first time");
      return "second time";
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("retryable", { title: "t" });
    await h.waitEvent("run.failed", (e) => e.run_id === run_id);
    const dead = (await h.service.getRun(run_id)).tasks![0];
    fail = false;
    const { task_id } = await h.service.retryTask(dead.id);
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toBe("second time");
    const retry = await h.service.getTask(task_id);
    expect(retry).toMatchObject({ node: "a", attempt: 2, created: dead.created, status: "done" });
    expect(retry.lineage).toMatchObject({ reason: "manual_retry", parent: dead.id });
    expect(h.named("run.updated", run_id).map((e) => e.data)).toEqual([
      { changed: { status: "running" } },
    ]);
  });

  it("after a completed run is re-opened, the new terminal attempt replaces the old one's output", async () => {
    h = await startHarness();
    let round = 0;
    const wf = workflow("redo");
    wf.node({ start: true }, async function a({ b }: any) {
      round += 1;
      return b(round);
    });
    wf.node(async function b({}: any, n: number) {
      return `b saw ${n}`;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("redo", { title: "t" });
    let lastSeen = 0;
    const completed = () =>
      h.waitEvent("run.completed", (e) => e.run_id === run_id && e.id! > lastSeen);
    const first = await completed();
    expect(first.data.output).toBe("b saw 1");
    const [, firstB] = (await h.service.getRun(run_id)).tasks!;
    lastSeen = first.id!;

    // A retry of the terminal attempt: its new result is the output, not [old, new].
    const { task_id: retried } = await h.service.retryTask(firstB.id);
    const second = await completed();
    expect(second.data).toMatchObject({ output: "b saw 1", terminal_tasks: [retried] });
    lastSeen = second.id!;

    // A rerun of the node before it: the branch runs on to a new terminal attempt.
    await h.service.rerun(run_id, { node: "a" });
    const third = await completed();
    const run = await h.service.getRun(run_id);
    const newest = run.tasks!.at(-1)!;
    expect(newest).toMatchObject({ node: "b", terminal: true, result: "b saw 2" });
    expect(third.data).toMatchObject({ output: "b saw 2", terminal_tasks: [newest.id] });
    expect(run.output).toBe("b saw 2");
    expect(run.outputs!.map((o) => o.task_id)).toEqual([newest.id]);
  });

  it("retry numbers attempts per branch: a sibling branch's retries do not count", async () => {
    h = await startHarness();
    let fatal = true;
    const wf = workflow("branchretry");
    wf.node({ start: true }, async function s({ w }: any) {
      return [w("a"), w("b")];
    });
    wf.node({ retries: 1 }, async function w({ j }: any, k: string, ctx: any) {
      if (k === "a" && ctx.task.attempt === 1) throw new Error("a is flaky once");
      if (k === "b" && fatal) throw new NonRetryable("b is broken");
      return j(`${k}@${ctx.task.attempt}`);
    });
    wf.node({ join: true }, async function j({}: any, arrivals: Arrival[]) {
      return arrivals.map((a) => a.value);
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("branchretry", { title: "t" });
    await h.waitEvent("run.failed", (e) => e.run_id === run_id);
    const tasks = (await h.service.getRun(run_id)).tasks!;
    const dead = tasks.find((t) => t.node === "w" && t.status === "dead_letter")!;
    expect(tasks.filter((t) => t.node === "w").map((t) => t.attempt)).toEqual([1, 1, 2]);
    fatal = false;
    const { task_id } = await h.service.retryTask(dead.id);
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(await h.service.getTask(task_id)).toMatchObject({ attempt: 2, branch: dead.branch });
    expect(done.data.output).toEqual(["a@2", "b@2"]);
    // A second manual retry of the same stopped attempt follows the branch's latest, not its own.
    await expect(
      h.service.retryTask(dead.id).then((r) => h.service.getTask(r.task_id)),
    ).resolves.toMatchObject({ attempt: 3 });
  });

  it("retry while the task is still going is a conflict", async () => {
    h = await startHarness();
    const { wf, hold } = blocking("busyretry");
    h.register(wf);
    const { run_id } = await h.service.submitRun("busyretry", { title: "t" });
    const started = await h.waitEvent("task.started", (e) => e.run_id === run_id);
    await expect(h.service.retryTask(started.task_id!)).rejects.toMatchObject({ code: "conflict" });
    hold.open();
  });

  it("move cancels the attempt and enqueues its payload at the target; a join is refused", async () => {
    h = await startHarness();
    const wf2 = workflow("moves");
    wf2.node({ start: true }, async function a({ b, j }: any, input: unknown, ctx: any) {
      await new Promise((r) => ctx.signal.addEventListener("abort", r));
      return b(input);
    });
    wf2.node(async function b({}: any, input: unknown) {
      return input;
    });
    wf2.node({ join: true }, async function j({}: any, xs: Arrival[]) {
      return xs;
    });
    h.register(wf2);
    const { run_id } = await h.service.submitRun("moves", { title: "moved" });
    const started = await h.waitEvent("task.started", (e) => e.run_id === run_id);
    await expect(h.service.moveTask(started.task_id!, { node: "j" })).rejects.toMatchObject({
      code: "conflict",
    });
    await expect(h.service.moveTask(started.task_id!, { node: "nope" })).rejects.toMatchObject({
      code: "unknown_node",
    });
    const { task_id } = await h.service.moveTask(started.task_id!, { node: "b" });
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data).toMatchObject({
      node: "b",
      task_id,
      output: { title: "moved", description: "" },
    });
    expect(h.named("task.moved", run_id)[0].data).toEqual({
      new_task_id: task_id,
      node: "a",
      to: "b",
    });
    expect(h.named("task.cancelled", run_id)[0].data.reason).toBe("move");
  });

  it("moving a finished task files it cancelled: only the moved work is the output", async () => {
    h = await startHarness();
    const wf = workflow("moveend");
    wf.node({ start: true }, async function a({ b, c }: any, input: { title: string }) {
      return input.title === "to c" ? c(input.title) : b(input.title);
    });
    wf.node(async function b({}: any, title: string) {
      return `b:${title}`;
    });
    wf.node(async function c({}: any, title: string) {
      return `c:${title}`;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("moveend", { title: "x" });
    const first = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    const finished = first.data.task_id as number;
    const { task_id } = await h.service.moveTask(finished, { node: "c" });
    const again = await h.waitEvent(
      "run.completed",
      (e) => e.run_id === run_id && e.data.task_id === task_id,
    );
    expect(again.data).toMatchObject({ output: "c:x", terminal_tasks: [task_id] });
    expect(h.named("task.cancelled", run_id).map((e) => [e.task_id, e.data])).toEqual([
      [finished, { from: "done", node: "b", reason: "move" }],
    ]);
    expect(await h.service.getTask(finished)).toMatchObject({ status: "cancelled" });
  });

  it("rerun enqueues a fresh attempt with the last payload; a join replays its arrivals", async () => {
    h = await startHarness();
    const seen: unknown[] = [];
    const wf = workflow("reruns");
    wf.node({ start: true }, async function split({ w }: any) {
      return [w(1), w(2)];
    });
    wf.node(async function w({ g }: any, n: number) {
      return n * 10;
    });
    wf.node({ join: true }, async function g({}: any, xs: Arrival[]) {
      seen.push(xs.map((a) => a.value));
      return xs.length;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("reruns", { title: "t" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    const { task_id } = await h.service.rerun(run_id, { node: "g" });
    await h.waitFor(async () => (await h.service.getTask(task_id)).status === "done", "rerun done");
    expect(seen).toEqual([
      [10, 20],
      [10, 20],
    ]);
    const rerun = await h.service.getTask(task_id);
    expect(rerun.attempt).toBe(2);
    expect(rerun.lineage).toMatchObject({ reason: "rerun" });
    await expect(h.service.rerun(run_id, { node: "zzz" })).rejects.toMatchObject({
      code: "unknown_node",
    });
    await h.waitFor(
      async () => (await h.service.getRun(run_id)).status === "completed",
      "re-completed",
    );
  });

  it("set status writes ready, cancelled and dead_letter with their events", async () => {
    h = await startHarness();
    let fail = true;
    const wf = workflow("statuses");
    wf.node({ start: true }, async function a() {
      if (fail) throw new NonRetryable("x");
      return "fixed";
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("statuses", { title: "t" });
    await h.waitEvent("run.failed", (e) => e.run_id === run_id);
    const task = (await h.service.getRun(run_id)).tasks![0];
    fail = false;
    await h.service.setTaskStatus(task.id, { status: "ready" });
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.task_id).toBe(task.id);
    expect(h.named("task.status_set", run_id)[0].data).toEqual({
      from: "dead_letter",
      node: "a",
      to: "ready",
    });
    const enq = h.named("task.enqueued", run_id).filter((e) => e.data.reason === "set_status");
    expect(enq).toHaveLength(1);
    await h.service.setTaskStatus(task.id, { status: "dead_letter" });
    expect((await h.service.getTask(task.id)).status).toBe("dead_letter");
    await h.service.setTaskStatus(task.id, { status: "cancelled" });
    expect((await h.service.getTask(task.id)).status).toBe("cancelled");
    expect(h.named("task.cancelled", run_id)[0].data).toEqual({
      from: "dead_letter",
      node: "a",
      reason: "set_status",
    });
    expect(h.named("task.status_set", run_id).map((e) => e.data.to)).toEqual([
      "ready",
      "dead_letter",
      "cancelled",
    ]);
  });
});
