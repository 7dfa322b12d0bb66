// Runs flowing through graphs: chains, fan-out and join (nested), outputs, join_incomplete.
import { afterEach, describe, expect, it } from "vitest";
import { type Arrival, NonRetryable, workflow } from "../../src/authoring/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const finished = (runId: string) => (e: { run_id: string | null }) => e.run_id === runId;

describe("a chain", () => {
  it("runs a -> b -> c with payloads and records every event in order", async () => {
    h = await startHarness();
    const wf = workflow("chain");
    wf.node({ start: true }, async function a({ b }: any, input: { title: string }) {
      return b({ n: input.title.length });
    });
    wf.node(async function b({ c }: any, p: { n: number }) {
      return p.n + 1;
    });
    wf.node(async function c({}: any, n: number) {
      return n * 10;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("chain", { title: "four", description: "" });
    const done = await h.waitEvent("run.completed", finished(run_id));
    expect(done.data).toMatchObject({ node: "c", output: 50 });
    const names = h.events.filter((e) => e.run_id === run_id).map((e) => e.name);
    expect(names).toEqual([
      "run.created",
      "task.enqueued",
      "run.started",
      "task.started",
      "task.done",
      "task.enqueued",
      "task.started",
      "task.done",
      "task.enqueued",
      "task.started",
      "task.done",
      "run.completed",
    ]);
    const enq = h.named("task.enqueued", run_id);
    expect(enq[0].data).toMatchObject({
      reason: "start",
      node: "a",
      payload_present: true,
      from_task: null,
    });
    expect(enq[1].data).toMatchObject({
      reason: "transition",
      node: "b",
      from_task: enq[0].task_id,
    });
    const detail = await h.service.getRun(run_id);
    expect(detail.status).toBe("completed");
    expect(detail.output).toBe(50);
    expect(detail.outputs).toEqual([{ node: "c", task_id: enq[2].task_id, branch: [], value: 50 }]);
    expect(detail.tasks!.map((t) => [t.node, t.status, t.terminal])).toEqual([
      ["a", "done", false],
      ["b", "done", false],
      ["c", "done", true],
    ]);
    expect(detail.tasks![0].payload).toEqual({ title: "four", description: "" });
    expect(detail.tasks![1].payload).toEqual({ n: 4 });
    expect(detail.tasks![2].payload).toBe(5);
    // every stored event id is monotonic and the run events endpoint answers the same list
    const stored = await h.service.runEvents(run_id, {});
    expect(stored.map((e) => e.name)).toEqual(names);
    expect(stored.map((e) => e.id)).toEqual([...stored.map((e) => e.id)].sort((x, y) => x! - y!));
  });

  it("a bare edge reference carries no payload", async () => {
    h = await startHarness();
    const wf = workflow("bare");
    wf.node({ start: true }, async function a({ b }: any) {
      return b;
    });
    wf.node(async function b({}: any, p?: unknown) {
      return p === undefined ? "nothing" : "something";
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("bare", { title: "t" });
    const done = await h.waitEvent("run.completed", finished(run_id));
    expect(done.data.output).toBe("nothing");
    expect(h.named("task.enqueued", run_id)[1].data.payload_present).toBe(false);
  });
});

function fanJoin(name: string) {
  const wf = workflow(name);
  wf.node({ start: true }, async function split({ work }: any, input: { title: string }) {
    return input.title.split(",").map((part) => work(part));
  });
  wf.node(async function work({ gather }: any, part: string) {
    await new Promise((r) => setTimeout(r, part.length * 3));
    return part.toUpperCase();
  });
  wf.node({ join: true }, async function gather({}: any, arrivals: Arrival[]) {
    return arrivals.map((a) => `${a.index}:${a.key}:${a.value}`);
  });
  return wf;
}

describe("fan-out and join", () => {
  it("dispatches the join once, with arrivals in branch order", async () => {
    h = await startHarness();
    h.register(fanJoin("fan"));
    const { run_id } = await h.service.submitRun("fan", { title: "ccc,a,bb" });
    const done = await h.waitEvent("run.completed", finished(run_id));
    expect(done.data.output).toEqual(["0:ccc:CCC", "1:a:A", "2:bb:BB"]);
    const arrivals = h.named("join.arrived", run_id);
    expect(arrivals).toHaveLength(3);
    expect(arrivals.map((e) => e.data.arrived)).toEqual([1, 2, 3]);
    expect(arrivals.every((e) => e.data.count === 3 && e.data.late === false)).toBe(true);
    const split = h.named("task.enqueued", run_id)[0].task_id;
    const joinEnq = h.named("task.enqueued", run_id).find((e) => e.data.reason === "join")!;
    expect(joinEnq.data.from_task).toBe(split);
    expect(joinEnq.data.branch).toEqual([]);
    const works = h.named("task.enqueued", run_id).filter((e) => e.data.node === "work");
    expect(works.map((e) => e.data.branch)).toEqual([
      [{ count: 3, fanout: split, index: 0 }],
      [{ count: 3, fanout: split, index: 1 }],
      [{ count: 3, fanout: split, index: 2 }],
    ]);
    // arrivals listed in branch order (a, bb, ccc finish in another order)
    const arrivedIds = arrivals.map((e) => e.task_id).sort((x, y) => x! - y!);
    expect(joinEnq.data.arrivals).toEqual(arrivedIds);
    expect(h.named("task.started", run_id).filter((e) => e.data.node === "gather")).toHaveLength(1);
  });

  it("closes nested fan-outs innermost first", async () => {
    h = await startHarness();
    const wf = workflow("nested");
    wf.node({ start: true }, async function outer({ inner }: any) {
      return [inner(2), inner(3)];
    });
    wf.node(async function inner({ leaf }: any, n: number) {
      return Array.from({ length: n }, (_, i) => leaf(i));
    });
    wf.node(async function leaf({ close_inner }: any, i: number) {
      return i;
    });
    wf.node({ join: true }, async function close_inner({ close_outer }: any, xs: Arrival[]) {
      return xs.map((a) => a.value as number).reduce((s, v) => s + v, 0);
    });
    wf.node({ join: true }, async function close_outer({}: any, xs: Arrival<number>[]) {
      return xs.map((a) => a.value);
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("nested", { title: "n" });
    const done = await h.waitEvent("run.completed", finished(run_id));
    expect(done.data.output).toEqual([1, 3]);
    const joins = h.named("task.enqueued", run_id).filter((e) => e.data.reason === "join");
    expect(joins.map((e) => e.data.node)).toEqual(
      expect.arrayContaining(["close_inner", "close_inner", "close_outer"]),
    );
    const inner = joins.filter((e) => e.data.node === "close_inner");
    for (const e of inner) expect((e.data.branch as unknown[]).length).toBe(1);
  });

  it("several branches ending without a join give a list output in branch order", async () => {
    h = await startHarness();
    const wf = workflow("ends");
    wf.node({ start: true }, async function split({ leaf }: any) {
      return [leaf(30), leaf(1), leaf(15)];
    });
    wf.node(async function leaf({}: any, ms: number) {
      await new Promise((r) => setTimeout(r, ms));
      return ms;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("ends", { title: "t" });
    const done = await h.waitEvent("run.completed", finished(run_id));
    expect(done.data.output).toEqual([30, 1, 15]);
    expect((done.data.terminal_tasks as number[]).length).toBe(3);
    const detail = await h.service.getRun(run_id);
    expect(detail.outputs?.map((o) => o.value)).toEqual([30, 1, 15]);
    expect(detail.outputs?.[0].branch).toEqual([
      { count: 3, fanout: detail.tasks![0].id, index: 0, key: 30 },
    ]);
  });

  it("fails with join_incomplete when a branch dead-letters before the join", async () => {
    h = await startHarness();
    const wf = workflow("partial");
    wf.node({ start: true }, async function split({ work }: any) {
      return [work(1), work(0), work(2)];
    });
    wf.node(async function work({ gather }: any, n: number) {
      if (n === 0) throw new NonRetryable("zero");
      return n;
    });
    wf.node({ join: true }, async function gather({}: any, xs: Arrival[]) {
      return xs.length;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("partial", { title: "t" });
    const failed = await h.waitEvent("run.failed", finished(run_id));
    expect(failed.data).toMatchObject({ code: "join_incomplete", node: "gather" });
    expect(String(failed.data.error)).toContain("2 of 3");
    expect((await h.service.getRun(run_id)).status).toBe("failed");
    const graph = await h.service.runGraph(run_id);
    expect(graph.nodes.find((n) => n.name === "gather")?.arrivals).toEqual({
      arrived: 2,
      count: 3,
    });
  });

  it("a join outside any fan-out runs once per arrival, its events naming the arriving task", async () => {
    h = await startHarness();
    const wf = workflow("loopjoin");
    wf.node({ start: true }, async function a({ g }: any) {
      return g(1);
    });
    wf.node({ join: true }, async function g({ again, done }: any, xs: Arrival<number>[]) {
      const n = xs[0].value;
      return n < 3 ? again(n) : done(n);
    });
    wf.node(async function again({ g }: any, n: number) {
      return g(n + 1);
    });
    wf.node(async function done({}: any, n: number) {
      return n;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("loopjoin", { title: "t" });
    const completed = await h.waitEvent("run.completed", finished(run_id));
    expect(completed.data.output).toBe(3);
    const arrivals = h.named("join.arrived", run_id);
    const joins = h.named("task.enqueued", run_id).filter((e) => e.data.reason === "join");
    expect(arrivals).toHaveLength(3);
    expect(joins).toHaveLength(3);
    for (const [i, e] of arrivals.entries()) {
      // The implicit one-branch frame is opened by the task that arrived.
      expect(e.data).toMatchObject({ join: "g", fanout_task: e.task_id, index: 0, count: 1 });
      expect(e.data).toMatchObject({ arrived: 1, late: false });
      expect(joins[i].data).toMatchObject({ from_task: e.task_id, arrivals: [e.task_id] });
    }
  });

  it("an empty list ends the branch without output", async () => {
    h = await startHarness();
    const wf = workflow("empty");
    wf.node({ start: true }, async function a({ b }: any) {
      return [];
    });
    wf.node(async function b() {
      return 1;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("empty", { title: "t" });
    const done = await h.waitEvent("run.completed", finished(run_id));
    expect(done.data.output).toBeNull();
    expect(done.data.terminal_tasks).toEqual([]);
    // The task still records what its body returned (http-api.md: `result`).
    const ended = h.named("task.done", run_id)[0];
    expect(await h.service.getTask(ended.task_id!)).toMatchObject({
      node: "a",
      status: "done",
      terminal: false,
      result: [],
    });
  });
});
