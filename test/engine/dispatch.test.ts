// Pools, slots and dispatch order: capacity, run position, node priority, pause and resume.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import type { Store } from "../../src/engine/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

/** A one-node workflow whose bodies record their order and wait for the test's gate. */
function recorder(name: string, order: string[], release: Promise<void>) {
  const wf = workflow(name);
  wf.node({ start: true }, async function only({}: any, input: { title: string }) {
    order.push(input.title);
    await release;
    return input.title;
  });
  return wf;
}

describe("dispatch", () => {
  it("never runs more attempts than the pool's capacity", async () => {
    h = await startHarness({ pools: { default: { capacity: 2 } } });
    let now = 0;
    let peak = 0;
    // The first attempts hold their slots until every run is queued, so the peak is the
    // capacity however slow the submits are, and above it only if the pool overran.
    let open!: () => void;
    const allQueued = new Promise<void>((resolve) => {
      open = resolve;
    });
    const wf = workflow("busy");
    wf.node({ start: true }, async function a() {
      now += 1;
      peak = Math.max(peak, now);
      await allQueued;
      await new Promise((r) => setTimeout(r, 10));
      now -= 1;
    });
    h.register(wf);
    const ids = [];
    for (let i = 0; i < 6; i++)
      ids.push((await h.service.submitRun("busy", { title: `r${i}` })).run_id);
    open();
    await h.waitFor(() => h.named("run.completed").length === 6, "six runs");
    expect(peak).toBe(2);
    const health = await h.service.health();
    expect(health.pools).toEqual({ default: { capacity: 2, in_flight: 0 } });
  });

  it("claims in run position order, and a reorder changes what is claimed next", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const order: string[] = [];
    const hold = gate();
    h.register(recorder("ordered", order, hold.promise));
    const first = await h.service.submitRun("ordered", { title: "first" });
    await h.waitFor(() => order.length === 1, "first claimed");
    await h.service.submitRun("ordered", { title: "second" });
    await h.service.submitRun("ordered", { title: "third" });
    const fourth = await h.service.submitRun("ordered", { title: "fourth" });
    expect(await h.service.positionRun(fourth.run_id, { index: 0 })).toEqual({ position: 1 });
    expect(await h.service.positionRun(first.run_id, { direction: 1 })).toEqual({ position: 3 });
    const list = await h.service.listRuns({});
    expect(list.map((r) => r.title)).toEqual(["fourth", "second", "first", "third"]);
    expect(list.map((r) => r.position)).toEqual([1, 2, 3, 4]);
    hold.open();
    await h.waitFor(() => h.named("run.completed").length === 4, "all runs");
    expect(order).toEqual(["first", "fourth", "second", "third"]);
    const reordered = h.named("run.reordered", fourth.run_id);
    expect(reordered[0].data).toEqual({ position: 1, previous: 4 });
  });

  it("a finishing attempt hands its slot to the first run in list order, not its successor", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const order: string[] = [];
    const hold = gate();
    const wf = workflow("chain");
    wf.node({ start: true }, async function a({ b }: any, input: { title: string }) {
      order.push(`${input.title}.a`);
      if (input.title === "x") await hold.promise;
      return b(input);
    });
    wf.node(async function b({}: any, input: { title: string }) {
      order.push(`${input.title}.b`);
    });
    h.register(wf);
    await h.service.submitRun("chain", { title: "x" });
    await h.waitFor(() => order.length === 1, "x claimed");
    const y = await h.service.submitRun("chain", { title: "y" });
    await h.service.positionRun(y.run_id, { index: 0 });
    hold.open();
    await h.waitFor(() => h.named("run.completed").length === 2, "both runs");
    expect(order).toEqual(["x.a", "y.a", "y.b", "x.b"]);
    const health = await h.service.health();
    expect(health.pools).toEqual({ default: { capacity: 1, in_flight: 0 } });
  });

  it("direction at the ends is a no-op answering the current position; index is clamped", async () => {
    h = await startHarness();
    const wf = workflow("idle");
    wf.node({ start: true }, async function a() {});
    h.register(wf, "default");
    await h.engine.stop();
    const a = await h.service.submitRun("idle", { title: "a" });
    const b = await h.service.submitRun("idle", { title: "b" });
    expect(await h.service.positionRun(a.run_id, { direction: -1 })).toEqual({ position: 1 });
    expect(await h.service.positionRun(b.run_id, { direction: 1 })).toEqual({ position: 2 });
    expect(await h.service.positionRun(a.run_id, { index: 99 })).toEqual({ position: 2 });
    expect(await h.service.positionRun(a.run_id, { index: -5 })).toEqual({ position: 1 });
    expect(h.named("run.reordered")).toHaveLength(2);
  });

  it("claims higher node priority first within a run", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const order: string[] = [];
    const wf = workflow("prio");
    wf.node({ start: true }, async function split({ low, high }: any) {
      return [low(1), high(2)];
    });
    wf.node({ priority: -1 }, async function low() {
      order.push("low");
    });
    wf.node({ priority: 5 }, async function high() {
      order.push("high");
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("prio", { title: "t" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(order).toEqual(["high", "low"]);
    const tasks = (await h.service.getRun(run_id)).tasks!;
    expect(tasks.map((t) => [t.node, t.priority, t.explicit])).toEqual([
      ["split", 0, false],
      ["low", -1, true],
      ["high", 5, true],
    ]);
  });

  it("pause lets the in-flight attempt finish; its successor waits until resume", async () => {
    h = await startHarness();
    const hold = gate();
    const wf = workflow("pausing");
    wf.node({ start: true }, async function a({ b }: any) {
      await hold.promise;
      return b(1);
    });
    wf.node(async function b({}: any, n: number) {
      return n + 1;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("pausing", { title: "t" });
    await h.waitEvent("task.started", (e) => e.run_id === run_id);
    await h.service.pauseRun(run_id);
    expect((await h.service.getRun(run_id)).status).toBe("paused");
    hold.open();
    await h.waitFor(async () => {
      const tasks = (await h.service.getRun(run_id)).tasks!;
      return tasks.length === 2 && tasks[1].status === "ready";
    }, "successor ready");
    // the successor stays ready while paused: give the dispatcher every chance to claim it
    h.engine.wake();
    await new Promise((r) => setTimeout(r, 50));
    expect((await h.service.getRun(run_id)).tasks![1].status).toBe("ready");
    await expect(h.service.pauseRun(run_id)).rejects.toMatchObject({ code: "conflict" });
    await h.service.resumeRun(run_id);
    expect(h.named("run.resumed", run_id)).toHaveLength(1);
    const done = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(done.data.output).toBe(2);
    await expect(h.service.resumeRun(run_id)).rejects.toMatchObject({ code: "conflict" });
  });

  it("a queued run resumes to queued, a started one to running", async () => {
    h = await startHarness();
    await h.engine.stop();
    const wf = workflow("q");
    wf.node({ start: true }, async function a() {});
    h.register(wf);
    const { run_id } = await h.service.submitRun("q", { title: "t" });
    await h.service.pauseRun(run_id);
    await h.service.resumeRun(run_id);
    expect((await h.service.getRun(run_id)).status).toBe("queued");
  });

  it("a step that hands its slot on to its own successor leaves the dispatcher asleep", async () => {
    h = await startHarness({ pools: { default: { capacity: 2 } } });
    const wf = workflow("steps");
    wf.node({ start: true }, async function a({ b }: any) {
      return b;
    });
    wf.node(async function b({ c }: any) {
      return c;
    });
    wf.node(async function c() {});
    h.register(wf);
    // The claim the engine's start made is over (a submit meanwhile finds its slots reserved).
    const pool = h.engine.registry.pools.get("default")!;
    await h.waitFor(() => pool.reserved === 0, "the start's claim over");
    // What each transaction that claimed was: a claim alone (the dispatcher's, after a wake),
    // or a claim made by a submit or an outcome in its own unit; beside the run's end.
    const seen: string[] = [];
    const transact = h.store.transact.bind(h.store);
    h.store.transact = ((fn) =>
      transact((tx) => {
        const calls = new Set<string>();
        const spied = new Proxy(tx, {
          get(target, name) {
            const value = Reflect.get(target, name, target);
            if (typeof value !== "function") return value;
            return (...args: unknown[]) => {
              calls.add(String(name));
              return value.apply(target, args);
            };
          },
        });
        return fn(spied).finally(() => {
          if (!calls.has("claimTasks")) return;
          const carried = ["updateTask", "insertRun", "insertRuns"].some((c) => calls.has(c));
          seen.push(carried ? "claim in a unit" : "claim alone");
        });
      })) as Store["transact"];
    h.engine.bus.subscribe((e) => {
      if (e.name === "run.completed") seen.push("run.completed");
    });
    const { run_id } = await h.service.submitRun("steps", { title: "chain" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    // c's slot is freed when its attempt ends, after the commit; a claim that wake asked for
    // would be queued by then, and done once a transaction queued after it is.
    await h.waitFor(() => pool.inFlight === 0, "c's slot freed");
    await h.store.transact(async () => {});
    // The submit claims `a`, and each step's outcome claims its successor in its own unit; c's
    // finds nothing, and nothing arrived since: no claim of the dispatcher's own, in a unit of
    // its own, before the run's end or after it.
    expect(seen).toEqual([...Array(4).fill("claim in a unit"), "run.completed"]);
    const done = h.named("task.done", run_id).map((e) => (e.data as { node: string }).node);
    expect(done).toEqual(["a", "b", "c"]);
  });
  it("a slot whose claim found nothing still goes to a run submitted before it was freed", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const hold = gate();
    const wf = workflow("one");
    wf.node({ start: true }, async function only({}: any, input: { title: string }) {
      if (input.title === "x") await hold.promise;
    });
    h.register(wf);
    const x = await h.service.submitRun("one", { title: "x" });
    await h.waitEvent("task.started", (e) => e.run_id === x.run_id);
    // x's outcome (its claim finds nothing) and y's submit (no free slot: x still holds it)
    // are asked for in one turn, so they commit together; y's task is claimable only once x's
    // slot is freed, after that commit.
    hold.open();
    const y = await h.service.submitRun("one", { title: "y" });
    await h.waitEvent("run.completed", (e) => e.run_id === x.run_id);
    await h.waitEvent("run.completed", (e) => e.run_id === y.run_id);
  });

  it("a step that enqueues more than the slot it hands on wakes the dispatcher for the rest", async () => {
    h = await startHarness({ pools: { default: { capacity: 3 } } });
    const hold = gate();
    let running = 0;
    const wf = workflow("wide");
    wf.node({ start: true }, async function split({ part }: any) {
      return ["x", "y", "z"].map((p) => part(p));
    });
    wf.node(async function part({}: any) {
      running += 1;
      await hold.promise;
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("wide", { title: "fan" });
    // The outcome's own claim takes one part for the slot it frees; the two others start only
    // if the dispatcher is woken for them, while the first still holds its slot.
    await h.waitFor(() => running === 3, "three parts running at once");
    hold.open();
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
  });
});

describe("a run that never stops looping", () => {
  it("leaves the event loop free, so timers fire and an operator can cancel it", async () => {
    h = await startHarness();
    let laps = 0;
    const CAP = 3000;
    const wf = workflow("spin");
    wf.node({ start: true }, async function ping({ pong }: any) {
      laps += 1;
      return pong;
    });
    // Loops back until CAP, so that a starved event loop fails the test rather than hanging it.
    wf.node(async function pong({ ping, stop }: any) {
      return laps < CAP ? ping : stop;
    });
    wf.node(async function stop() {});
    h.register(wf);
    const { run_id } = await h.service.submitRun("spin", { title: "t" });
    // Polled with timers: each one fires only if the loop gives the event loop a turn.
    while (laps === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 5));
    // The timers fired while the run was still looping, not once it had ended.
    expect(laps).toBeLessThan(CAP);
    await h.service.cancelRun(run_id);
    expect((await h.service.getRun(run_id)).status).toBe("cancelled");
  });
});
