// Derived views: GraphOut node states, branches, arrivals and edge traversal counts; RunSummary
// current nodes; run stats sums.
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Arrival, workflow } from "../../src/authoring/index.ts";
import type { TaskRecord } from "../../src/engine/index.ts";
import { RunSummary } from "../../src/service/schemas/index.ts";
import { runGraph } from "../../src/service/views/graph.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

const RunSummaries = z.array(RunSummary);

let h: Harness;
afterEach(async () => {
  await h?.close();
});

describe("run graph", () => {
  it("shows branches, open arrivals, live states and traversal counts", async () => {
    h = await startHarness();
    const hold = gate();
    const wf = workflow("viewed");
    wf.node({ start: true }, async function split({ work }: any) {
      return [work(0), work(1), work(2)];
    });
    wf.node(async function work({ gather }: any, n: number) {
      if (n === 2) await hold.promise;
      return n;
    });
    wf.node({ join: true }, async function gather({}: any, xs: Arrival[]) {
      return xs.length;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("viewed", { title: "t" });
    await h.waitFor(() => h.named("join.arrived", run_id).length === 2, "two arrivals");
    const open = await h.service.runGraph(run_id);
    const byName = Object.fromEntries(open.nodes.map((n) => [n.name, n]));
    const split = (await h.service.getRun(run_id)).tasks![0].id;
    expect(byName.split).toMatchObject({
      generation: 0,
      join: false,
      state: "done",
      live: true,
      attempts: 1,
    });
    expect(byName.split.branches).toEqual([{ from_task: null, tasks: [split] }]);
    expect(byName.work).toMatchObject({ state: "in_progress", live: true, attempts: 3 });
    expect(byName.work.branches!.map((b) => b.from_task)).toEqual([split, split, split]);
    expect(byName.gather).toMatchObject({
      join: true,
      state: "idle",
      live: false,
      attempts: 0,
      last_task_id: null,
    });
    expect(byName.gather.arrivals).toEqual({ arrived: 2, count: 3 });
    expect(open.edges).toEqual([
      { from: "split", to: "work", kind: "forward", traversed: 3 },
      { from: "work", to: "gather", kind: "join", traversed: 2 },
    ]);
    const list = await h.service.listRuns({});
    // The list route sends this without response validation: the view must fit the schema.
    expect(() => RunSummaries.parse(list)).not.toThrow();
    const summary = list.find((r) => r.id === run_id)!;
    expect(summary.current_nodes).toEqual(["work"]);
    hold.open();
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    const closed = await h.service.runGraph(run_id);
    const gather = closed.nodes.find((n) => n.name === "gather")!;
    expect(gather).toMatchObject({ state: "done", attempts: 1, arrivals: null });
    expect(closed.edges[1].traversed).toBe(3);
  });

  it("a failed attempt with its retry queued reports ready", async () => {
    h = await startHarness();
    const hold = gate();
    let calls = 0;
    const wf = workflow("flaky_view");
    wf.node({ start: true, retries: 1 }, async function a() {
      calls += 1;
      if (calls === 1) {
        await hold.promise;
        throw new Error("once");
      }
      return "ok";
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("flaky_view", { title: "t" });
    await h.waitEvent("task.started", (e) => e.run_id === run_id);
    // paused: the failing attempt finishes, and its retry stays queued
    await h.service.pauseRun(run_id);
    hold.open();
    await h.waitEvent("task.failed", (e) => e.run_id === run_id);
    const graph = await h.service.runGraph(run_id);
    expect(graph.nodes[0]).toMatchObject({ state: "ready", attempts: 2 });
    await h.service.resumeRun(run_id);
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    // the spec's precedence: failed outranks done, even once the retry succeeded
    expect((await h.service.runGraph(run_id)).nodes[0].state).toBe("failed");
  });

  it("an unregistered workflow's graph is 404 unknown_workflow; the run is flagged", async () => {
    h = await startHarness();
    const wf = workflow("gone");
    wf.node({ start: true }, async function a() {});
    h.register(wf);
    await h.engine.stop();
    const { run_id } = await h.service.submitRun("gone", { title: "t" });
    h.engine.registry.workflows.delete("gone");
    await expect(h.service.runGraph(run_id)).rejects.toMatchObject({
      code: "unknown_workflow",
      status: 404,
    });
    const list = await h.service.listRuns({});
    expect(() => RunSummaries.parse(list)).not.toThrow();
    expect(list[0].unregistered).toBe(true);
  });
});

describe("run graph of a long-lived run", () => {
  it("answers for hundreds of thousands of attempts of one node", async () => {
    h = await startHarness();
    const wf = workflow("poller");
    wf.node({ start: true }, async function poll({ again }: any) {
      return again;
    });
    wf.node(async function again({ poll }: any) {
      return poll;
    });
    h.register(wf);
    // The history of a poller that has looped 100,000 times: attempts alternate between the
    // nodes. Past ~125k values Math.max(...ids) throws; grouping that copied the node's attempts
    // once per attempt took minutes at this size (4 s at 40,000), blocking every socket.
    const laps = 200_000;
    const tasks: TaskRecord[] = Array.from({ length: laps }, (_, i) => ({
      id: i + 1,
      run_id: "run",
      node: i % 2 ? "again" : "poll",
      attempt: 1,
      status: "done",
      priority: 0,
      explicit: false,
      created: 0,
      started: 0,
      finished: 0,
      error: null,
      payload_present: false,
      payload: null,
      result: null,
      result_present: true,
      terminal: false,
      branch: [],
      lineage: i ? { reason: "transition", parent: i } : { reason: "start", parent: null },
      stats: null,
      claim: 1,
      token_hash: null,
      used_s: 0,
      waiting_since: null,
      error_stack: null,
      not_before: null,
      sleep_until: null,
      sleeps: null,
    }));
    const graph = runGraph(h.engine.registry.workflows.get("poller")!.graph, tasks, [], []);
    expect(graph.nodes.map((n) => [n.name, n.attempts, n.last_task_id])).toEqual([
      ["poll", laps / 2, laps - 1],
      ["again", laps / 2, laps],
    ]);
    expect(graph.edges.map((e) => [e.from, e.to, e.traversed])).toEqual([
      ["poll", "again", laps / 2],
      ["again", "poll", laps / 2 - 1],
    ]);
  });
});

describe("run stats", () => {
  it("sums agent measurements and omits what nobody measured", async () => {
    h = await startHarness();
    const wf = workflow("measured");
    wf.node({ start: true }, async function a() {});
    h.register(wf);
    const { run_id } = await h.service.submitRun("measured", { title: "t" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect((await h.service.getRun(run_id)).stats).toBeUndefined();
    const [task] = (await h.service.getRun(run_id)).tasks!;
    await h.store.transact(async (tx) => {
      await tx.updateTask(task.id, { stats: { duration_s: 1.5, input_tokens: 10 } });
    });
    expect((await h.service.getRun(run_id)).stats).toEqual({ duration_s: 1.5, input_tokens: 10 });
  });
});
