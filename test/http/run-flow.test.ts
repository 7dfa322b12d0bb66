// Black-box conformance of the engine as seen over HTTP: fan-out and join, run output,
// GraphOut, retries, NonRetryable, node timeouts and human input (http-api.md).
import { describe, expect, it } from "vitest";
import { checkFields, checkType } from "../support/api-shapes.ts";
import { ended, suiteForFile } from "../support/operator-suite.ts";
import { release } from "../support/suite-flows.ts";
import { eventually } from "../support/wait.ts";

const s = suiteForFile();

const graphOf = async (id: string) => {
  const reply = await s.server.call("GET", `/api/runs/${id}/graph`);
  expect(reply.status).toBe(200);
  checkGraph(reply.body);
  return {
    node: (name: string) => reply.body.nodes.find((n: any) => n.name === name),
    edge: (from: string, to: string) =>
      reply.body.edges.find((e: any) => e.from === from && e.to === to),
  };
};
const STATES = [
  "in_progress",
  "waiting",
  "ready",
  "dead_letter",
  "failed",
  "done",
  "cancelled",
  "idle",
];

function checkGraph(graph: any): void {
  for (const node of graph.nodes) {
    const fields = {
      name: "str",
      generation: "int",
      join: "bool",
      state: "str",
      live: "bool",
      attempts: "int",
    };
    checkFields(
      node,
      { ...fields, arrivals: "obj?", branches: "obj[]?", last_task_id: "int?" },
      "GraphNode",
    );
    expect(STATES).toContain(node.state);
    for (const b of node.branches ?? [])
      checkFields(b, { from_task: "int?", tasks: "int[]" }, "GraphBranch");
  }
  for (const edge of graph.edges) {
    checkFields(edge, { from: "str", to: "str", kind: "str", traversed: "int" }, "GraphEdge");
    expect(["forward", "back", "join"]).toContain(edge.kind);
  }
}

describe("fan-out and join", () => {
  it("a join is dispatched once with one Arrival per branch in fan-out order", async () => {
    const id = await s.submit("fan", "f");
    const run = await s.untilRun(id, ended, "fan ends");
    expect(run.status).toBe("completed");
    const split = run.tasks.find((t: any) => t.node === "split");
    const works = run.tasks.filter((t: any) => t.node === "work");
    const gathers = run.tasks.filter((t: any) => t.node === "gather");
    expect(gathers).toHaveLength(1);
    works.forEach((w: any, i: number) => {
      expect(w.branch).toEqual([{ count: 3, fanout: split.id, index: i, key: i + 1 }]);
    });
    const arrivals = works.map((w: any, i: number) => ({
      index: i,
      key: i + 1,
      value: (i + 1) * 10,
      task_id: w.id,
    }));
    expect(run.output).toEqual(arrivals);
    expect(run.outputs).toEqual([
      { node: "gather", task_id: gathers[0].id, branch: [], value: arrivals },
    ]);
    const events = await s.stored(id);
    const joins = events.filter((e) => e.name === "join.arrived");
    expect(joins.map((e) => e.data.arrived)).toEqual([1, 2, 3]);
    for (const e of joins)
      expect(e.data).toMatchObject({
        join: "gather",
        fanout_task: split.id,
        count: 3,
        late: false,
      });
    const enq = events.find((e) => e.name === "task.enqueued" && e.data.node === "gather");
    expect(enq?.data).toMatchObject({ reason: "join", from_task: split.id, branch: [] });
    expect([...(enq?.data.arrivals ?? [])].sort()).toEqual(works.map((w: any) => w.id).sort());
    const g = await graphOf(id);
    expect(g.node("gather")).toMatchObject({
      join: true,
      state: "done",
      attempts: 1,
      last_task_id: gathers[0].id,
    });
    expect(g.node("gather")).toMatchObject({ generation: 2, arrivals: null });
    for (const e of events.filter((e) => e.name === "task.enqueued")) {
      for (const frame of e.data.branch)
        expect(Object.keys(frame).sort()).toEqual(["count", "fanout", "index"]);
    }
    expect(g.node("work")).toMatchObject({ generation: 1, state: "done", attempts: 3 });
    const branches = g.node("work").branches;
    expect(branches.flatMap((b: any) => b.tasks).sort()).toEqual(
      works.map((w: any) => w.id).sort(),
    );
    for (const b of branches) expect(b.from_task).toBe(split.id);
    expect(g.node("split").branches).toEqual([{ from_task: null, tasks: [split.id] }]);
    expect(g.edge("split", "work")).toMatchObject({ kind: "forward", traversed: 3 });
    expect(g.edge("work", "gather")).toMatchObject({ kind: "join", traversed: 3 });
  });

  it("independent branches make a list output in branch order", async () => {
    const id = await s.submit("multi", "m");
    const run = await s.untilRun(id, ended, "multi ends");
    expect(run.output).toEqual(["A", "B"]);
    const leaves = run.tasks.filter((t: any) => t.node === "leaf");
    expect(run.outputs.map((o: any) => [o.node, o.task_id, o.value])).toEqual(
      leaves.map((l: any, i: number) => ["leaf", l.id, ["A", "B"][i]]),
    );
    for (const o of run.outputs) expect(o.branch).toHaveLength(1);
    const done = (await s.stored(id)).find((e) => e.name === "run.completed");
    expect(done?.data.output).toEqual(["A", "B"]);
    expect(done?.data.terminal_tasks).toEqual(leaves.map((l: any) => l.id));
  });

  it("a partly arrived join fails the run with join_incomplete", async () => {
    const id = await s.submit("partial", "p");
    const run = await s.untilRun(id, ended, "partial ends");
    expect(run.status).toBe("failed");
    const failed = (await s.stored(id)).find((e) => e.name === "run.failed");
    expect(failed?.data.code).toBe("join_incomplete");
    expect(failed?.data.error).toContain("gather");
    const g = await graphOf(id);
    expect(g.node("gather")).toMatchObject({ state: "idle", attempts: 0, live: false });
    expect(g.node("gather").arrivals).toEqual({ arrived: 1, count: 2 });
  });
});

describe("graph of a loop", () => {
  it("numbers generations by BFS depth and marks a loop-back edge `back`", async () => {
    const id = await s.submit("looper", "l");
    const run = await s.untilRun(id, ended, "looper ends");
    expect(run.output).toBe(2);
    const g = await graphOf(id);
    expect([
      g.node("begin").generation,
      g.node("tick").generation,
      g.node("end").generation,
    ]).toEqual([0, 1, 2]);
    expect(g.node("tick")).toMatchObject({ attempts: 3, state: "done", live: true });
    expect(g.node("tick").branches).toHaveLength(1);
    expect(g.node("tick").branches[0].from_task).toBeNull();
    expect(g.edge("begin", "tick")).toMatchObject({ kind: "forward", traversed: 1 });
    expect(g.edge("tick", "tick")).toMatchObject({ kind: "back", traversed: 2 });
    expect(g.edge("tick", "end")).toMatchObject({ kind: "forward", traversed: 1 });
  });
});

describe("failures", () => {
  it("a retryable failure emits task.failed with the retry's id, then dead-letters when exhausted", async () => {
    const id = await s.submit("flaky", "f");
    const dead = await s.tap.waitFor(
      "dead letter",
      (e) => e.run_id === id && e.name === "task.dead_lettered",
    );
    const run = await s.run(id);
    const [first, second] = run.tasks;
    expect([first.status, second.status]).toEqual(["failed", "dead_letter"]);
    expect(first.error).toContain("boom");
    const failed = s.eventsOf(id).find((e) => e.name === "task.failed" && e.task_id === first.id);
    expect(failed?.data).toMatchObject({
      attempt: 1,
      node: "shaky",
      retryable: true,
      will_retry: true,
    });
    expect(failed?.data.retry_task_id).toBe(second.id);
    const retry = s.eventsOf(id).find((e) => e.name === "task.enqueued" && e.task_id === second.id);
    expect(retry?.data).toMatchObject({ attempt: 2, reason: "retry" });
    expect(dead.data).toMatchObject({ attempt: 2, node: "shaky" });
    expect((await graphOf(id)).node("shaky")).toMatchObject({
      state: "dead_letter",
      live: false,
      attempts: 2,
    });
  });

  it("a failed attempt whose retry row is queued reports its node `ready`", async () => {
    const id = await s.submit("wobbly", "w");
    await s.untilTask(id, (t) => t.status === "in_progress", "first attempt running");
    expect((await s.server.call("POST", `/api/runs/${id}/pause`)).status).toBe(200);
    release(s.server.dir, id);
    const retry = await s.untilTask(id, (t) => t.attempt === 2, "retry row");
    expect(retry.status).toBe("ready");
    expect((await s.run(id)).tasks[0].status).toBe("failed");
    expect((await graphOf(id)).node("teeter").state).toBe("ready");
    await s.server.call("POST", `/api/runs/${id}/resume`);
    await s.untilTask(
      id,
      (t) => t.attempt === 2 && t.status === "dead_letter",
      "retry dead-lettered",
    );
  });

  it("NonRetryable dead-letters at once whatever the retries", async () => {
    const id = await s.submit("fatal", "x");
    const dead = await s.tap.waitFor(
      "dead letter",
      (e) => e.run_id === id && e.name === "task.dead_lettered",
    );
    expect(dead.data).toMatchObject({ attempt: 1, node: "doomed" });
    expect(dead.data.error).toContain("no hope");
    const run = await s.run(id);
    expect(run.tasks).toHaveLength(1);
    expect(s.eventsOf(id).some((e) => e.name === "task.failed" && e.data.will_retry)).toBe(false);
  });

  it("a node timeout fails the attempt like any other error", async () => {
    const id = await s.submit("slow", "t");
    const dead = await s.tap.waitFor(
      "timeout",
      (e) => e.run_id === id && e.name === "task.dead_lettered",
      15_000,
    );
    expect(dead.data).toMatchObject({ attempt: 1, node: "crawl" });
    const wf = (await s.server.call("GET", "/api/workflows/slow")).body;
    expect(wf.nodes.crawl.timeout).toBe(0.3);
  });
});

describe("human input", () => {
  it("a node timeout's clock stops while the task waits on a person", async () => {
    const id = await s.submit("patient", "p");
    const opened = await s.tap.waitFor(
      "request.opened",
      (e) => e.run_id === id && e.name === "request.opened",
    );
    const rid = opened.data.request_id;
    const path = `/api/requests/${rid}`;
    // Wait well past the node's 0.5 s timeout, measured by the request's own age.
    await eventually(
      async () => (await s.server.call("GET", path)).body.age > 1,
      "request older than the timeout",
    );
    expect((await s.server.call("POST", `${path}/answer`, { value: "later" })).status).toBe(200);
    const run = await s.untilRun(id, ended, "patient ends");
    expect(run).toMatchObject({ status: "completed", output: "later" });
  });

  it("a waiting task counts in pending_requests and current_nodes until answered", async () => {
    const id = await s.submit("asker", "a");
    const opened = await s.tap.waitFor(
      "request.opened",
      (e) => e.run_id === id && e.name === "request.opened",
    );
    expect(opened.data).toMatchObject({
      node: "ask",
      mode: "options",
      source: "node",
      kind: "question",
    });
    const waiting = await s.untilRun(id, (r) => r.tasks?.[0]?.status === "waiting", "task waiting");
    expect(waiting).toMatchObject({
      status: "running",
      current_nodes: ["ask"],
      pending_requests: 1,
    });
    expect((await graphOf(id)).node("ask")).toMatchObject({ state: "waiting", live: true });
    const rid = opened.data.request_id;
    const answered = await s.server.call("POST", `/api/requests/${rid}/answer`, {
      option_id: "yes",
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      id: rid,
      answer: "yes",
      answered_by: "user",
      pending: false,
    });
    const run = await s.untilRun(id, ended, "asker ends");
    expect(run.output).toBe("yes");
    expect(run.pending_requests ?? 0).toBe(0);
    const resumed = s.eventsOf(id).find((e) => e.name === "task.resumed");
    checkType(resumed?.data.waited_s, "num", "waited_s");
    const ans = s.eventsOf(id).find((e) => e.name === "request.answered");
    expect(ans?.data).toEqual({ author: "user", option_id: "yes", request_id: rid });
  });
});
