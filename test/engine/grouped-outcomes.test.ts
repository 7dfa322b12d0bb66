// Outcomes that arrive together share one unit of work (`UnitOfWork.grouped`): one transaction,
// one event append, and one claim for every slot they hand on; a callback that throws in a
// shared unit fails alone, the others are committed in units of their own.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { EventBus, type Store, type StoreWriter, systemClock } from "../../src/engine/index.ts";
import { NO_OBSERVER } from "../../src/engine/observer.ts";
import { UnitOfWork } from "../../src/engine/unit-of-work.ts";
import { openStore } from "../../src/server/start.ts";
import { addRun } from "../stores/contract/fixtures.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";
import { testStoreUrl } from "../support/test-store.ts";

let h: Harness | undefined;
let store: Store | undefined;
afterEach(async () => {
  await h?.close();
  await store?.close();
  h = undefined;
  store = undefined;
});

/** Counts the store's transactions from now on. */
function countTransactions(s: Store): { count: number } {
  const counted = { count: 0 };
  const transact = s.transact.bind(s);
  s.transact = ((fn) => {
    counted.count += 1;
    return transact(fn);
  }) as Store["transact"];
  return counted;
}

/** Runs `wrap` on the writer of every transaction from now on, before its callback. */
function eachTransaction(s: Store, wrap: (tx: StoreWriter) => void): void {
  const transact = s.transact.bind(s);
  s.transact = ((fn) =>
    transact((tx) => {
      wrap(tx);
      return fn(tx);
    })) as Store["transact"];
}

/** Records each claim from now on: how many tasks it asked for, and how many it took. */
function recordClaims(s: Store): Array<[number, number]> {
  const claims: Array<[number, number]> = [];
  eachTransaction(s, (tx) => {
    const claimTasks = tx.claimTasks.bind(tx);
    tx.claimTasks = async (...args) => {
      const got = await claimTasks(...args);
      claims.push([args[1], got.length]);
      return got;
    };
  });
  return claims;
}

/** Records each `updateTasks` call from now on: the runs of its updates, in order. */
function recordUpdateCalls(s: Store): string[][] {
  const calls: string[][] = [];
  eachTransaction(s, (tx) => {
    const updateTasks = tx.updateTasks.bind(tx);
    tx.updateTasks = (updates) => {
      calls.push(updates.map((u) => u.runId));
      return updateTasks(updates);
    };
  });
  return calls;
}

/** A run of four parts held at `hold`, each ending its branch with its name in capitals. */
function fourParts(name: string, hold: Promise<void>, fails = "") {
  const wf = workflow(name);
  wf.node({ start: true }, async function split({ part }: any) {
    return ["a", "b", "c", "d"].map((p) => part(p));
  });
  wf.node(async function part({}: any, p: string) {
    await hold;
    if (p === fails) throw new Error(`part ${p} broke`);
    return p.toUpperCase();
  });
  return wf;
}

describe("grouped outcomes", () => {
  it("callbacks asked for together share one transaction and resolve each with its own value", async () => {
    store = await openStore(testStoreUrl(mkdtempSync(join(tmpdir(), "ym-group-"))));
    const run = await addRun(store);
    const bus = new EventBus();
    const seen: string[] = [];
    bus.subscribe((e) => seen.push(`${e.name}:${(e.data as { n: number }).n}`));
    const uow = new UnitOfWork(store, bus, NO_OBSERVER, systemClock);
    const counted = countTransactions(store);
    const emit = (n: number) =>
      uow.grouped(
        async (work) => {
          work.emit("run.updated", run.id, null, { changed: {}, n } as never);
          return n * 10;
        },
        { lane: "test" },
      );
    expect(await Promise.all([emit(1), emit(2), emit(3)])).toEqual([10, 20, 30]);
    expect(counted.count).toBe(1);
    expect(seen).toEqual(["run.updated:1", "run.updated:2", "run.updated:3"]);
  });

  it("a callback that throws fails alone; the others commit in units of their own, in order", async () => {
    store = await openStore(testStoreUrl(mkdtempSync(join(tmpdir(), "ym-group-"))));
    const run = await addRun(store);
    const uow = new UnitOfWork(store, new EventBus(), NO_OBSERVER, systemClock);
    const counted = countTransactions(store);
    const tries = [0, 0, 0, 0];
    let later: Promise<number> | undefined;
    const touch = (i: number, fail: boolean): Promise<number> =>
      uow.grouped(
        async (work) => {
          tries[i] += 1;
          // Asked for while the shared unit runs: it must still commit after the ones before it.
          if (i === 0) later ??= touch(3, false);
          work.emit("run.updated", run.id, null, { changed: {}, i } as never);
          if (fail) throw new Error(`callback ${i} failed`);
          return i;
        },
        { lane: "test" },
      );
    const settled = await Promise.allSettled([touch(0, false), touch(1, true), touch(2, false)]);
    expect(settled.map((s) => (s.status === "fulfilled" ? s.value : String(s.reason)))).toEqual([
      0,
      "Error: callback 1 failed",
      2,
    ]);
    expect(await later).toBe(3);
    // The shared try (which stopped at the one that threw), each alone, then the later one.
    expect(counted.count).toBe(5);
    expect(tries).toEqual([2, 2, 1, 1]);
    const stored = (await store.listEvents({ run_id: run.id })).filter(
      (e) => e.name === "run.updated",
    );
    expect(stored.map((e) => (e.data as { i: number }).i)).toEqual([0, 2, 3]);
  });

  it("attempts that end together commit in one unit and hand their slots on in one claim", async () => {
    h = await startHarness({ pools: { default: { capacity: 4 } } });
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let running = 0;
    let most = 0;
    const wf = workflow("gated");
    wf.node({ start: true }, async function wait() {
      running += 1;
      most = Math.max(most, running);
      await gate;
      running -= 1;
      return "ok";
    });
    h.register(wf);
    const runs = [];
    for (let i = 0; i < 8; i++)
      runs.push((await h.service.submitRun("gated", { title: `r${i}` })).run_id);
    await h.waitFor(() => running === 4, "four attempts running");
    const counted = countTransactions(h.store);
    const claims = recordClaims(h.store);
    release();
    for (const id of runs) await h.waitEvent("run.completed", (e) => e.run_id === id);
    expect(most).toBe(4);
    // The first four outcomes: one unit, whose one claim took the four waiting tasks.
    expect(claims[0][1]).toBe(4);
    expect(counted.count).toBeLessThan(8);
    const started = h.named("task.started").map((e) => e.run_id);
    expect(started.sort()).toEqual([...runs].sort());
  });

  it("submits that arrive together claim their slots with one claim at their unit's end", async () => {
    h = await startHarness({ pools: { default: { capacity: 3 } } });
    const hold = gate();
    const wf = workflow("held");
    wf.node({ start: true }, async function wait() {
      await hold.promise;
    });
    h.register(wf);
    const pool = h.engine.registry.pools.get("default")!;
    await h.waitFor(() => pool.reserved === 0, "the start's claim over");
    const claims = recordClaims(h.store);
    // Four submits in one turn: one shared unit; three slots free, so three reservations.
    const ids = await Promise.all(
      [0, 1, 2, 3].map(
        async (i) => (await h!.service.submitRun("held", { title: `r${i}` })).run_id,
      ),
    );
    await h.waitFor(() => h!.named("task.started").length === 3, "three started");
    // One claim for the three reserved slots, which took the first three runs' start tasks
    // (dispatch order); the fourth waits for a slot.
    expect(claims[0]).toEqual([3, 3]);
    const started = h.named("task.started").map((e) => e.run_id);
    expect(started).toEqual(ids.slice(0, 3));
    hold.open();
    for (const id of ids) await h.waitEvent("run.completed", (e) => e.run_id === id);
  });

  it("branches of one run that end together update in one call; the run ends once, after them all", async () => {
    h = await startHarness({ pools: { default: { capacity: 4 } } });
    const hold = gate();
    h.register(fourParts("four", hold.promise));
    const { run_id } = await h.service.submitRun("four", { title: "t" });
    await h.waitFor(() => h!.named("task.started", run_id).length === 5, "four parts running");
    const calls = recordUpdateCalls(h.store);
    hold.open();
    const completed = await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    // The four outcomes shared a unit and their updates went as one call.
    expect(calls).toEqual([[run_id, run_id, run_id, run_id]]);
    expect(completed.data.output).toEqual(["A", "B", "C", "D"]);
    // Settled once, after the last branch's outcome, as one outcome at a time would have.
    const names = h.events.filter((e) => e.run_id === run_id).map((e) => e.name);
    expect(names.filter((n) => n === "run.completed")).toHaveLength(1);
    expect(names.lastIndexOf("task.done")).toBeLessThan(names.indexOf("run.completed"));
    expect(h.named("task.done", run_id)).toHaveLength(5);
  });

  it("a failure among a run's outcomes keeps that run's updates in turn; the run fails after them all", async () => {
    h = await startHarness({ pools: { default: { capacity: 4 } } });
    const hold = gate();
    h.register(fourParts("four", hold.promise, "b"));
    const { run_id } = await h.service.submitRun("four", { title: "t" });
    await h.waitFor(() => h!.named("task.started", run_id).length === 5, "four parts running");
    const calls = recordUpdateCalls(h.store);
    hold.open();
    const failed = await h.waitEvent("run.failed", (e) => e.run_id === run_id);
    expect(failed.data.error).toMatch(/part b broke/);
    // The dead-lettered outcome has no early update: none of its run's goes before its turn.
    expect(calls).toEqual([]);
    const names = h.events.filter((e) => e.run_id === run_id).map((e) => e.name);
    expect(names.filter((n) => n === "run.failed")).toHaveLength(1);
    expect(names.lastIndexOf("task.done")).toBeLessThan(names.indexOf("run.failed"));
    expect(h.named("task.done", run_id)).toHaveLength(4);
  });
});
