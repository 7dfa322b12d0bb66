// The claim: dispatch order, which runs and tasks are eligible, limits and the claim counter.
import { describe, expect, it } from "vitest";
import type { RunStatus } from "../../../src/engine/index.ts";
import { addRun, addTask, type Harness } from "./fixtures.ts";

export function claimsContract(h: Harness): void {
  const claim = (workflows: string[], limit: number, now = 500) =>
    h.store.transact((tx) => tx.claimTasks(workflows, limit, now));
  const ids = (tasks: Array<{ id: number }>) => tasks.map((t) => t.id);

  describe("claims", () => {
    it("orders by run position, then priority desc, then created, then id", async () => {
      const first = await addRun(h.store, { workflow: "w" });
      const second = await addRun(h.store, { workflow: "w" });
      // Inserted in an order that differs from the dispatch order on every key.
      const s1 = await addTask(h.store, second.id, { priority: 9, created: 1 });
      const f1 = await addTask(h.store, first.id, { priority: 0, created: 1 });
      const f2 = await addTask(h.store, first.id, { priority: 5, created: 30 });
      const f3 = await addTask(h.store, first.id, { priority: 5, created: 20 });
      const f4 = await addTask(h.store, first.id, { priority: 5, created: 20 });
      const f5 = await addTask(h.store, first.id, { priority: 0, created: 0 });
      const claimed = await claim(["w"], 10);
      expect(ids(claimed)).toEqual([f3.id, f4.id, f2.id, f5.id, f1.id, s1.id]);
      expect(await claim(["w"], 10)).toEqual([]);
    });

    it("follows the dispatch list after a move", async () => {
      const a = await addRun(h.store, { workflow: "w" });
      const b = await addRun(h.store, { workflow: "w" });
      const ta = await addTask(h.store, a.id, { priority: 100 });
      const tb = await addTask(h.store, b.id);
      await h.store.transact((tx) => tx.moveRun(b.id, 0));
      expect(ids(await claim(["w"], 2))).toEqual([tb.id, ta.id]);
    });

    it("skips paused and ended runs and tasks that are not ready", async () => {
      const eligible: number[] = [];
      const statuses: RunStatus[] = [
        "queued",
        "paused",
        "running",
        "completed",
        "failed",
        "cancelled",
      ];
      for (const status of statuses) {
        const run = await addRun(h.store, { workflow: "w", status });
        const task = await addTask(h.store, run.id);
        if (status === "queued" || status === "running") eligible.push(task.id);
      }
      const running = await addRun(h.store, { workflow: "w", status: "running" });
      for (const status of ["waiting", "done", "failed", "dead_letter", "cancelled"] as const) {
        const task = await addTask(h.store, running.id);
        await h.store.transact((tx) => tx.updateTask(task.id, { status }));
      }
      expect(ids(await claim(["w"], 50))).toEqual(eligible);
    });

    it("claims only the given workflows", async () => {
      const a = await addRun(h.store, { workflow: "alpha" });
      const b = await addRun(h.store, { workflow: "beta" });
      const c = await addRun(h.store, { workflow: "gamma" });
      const ta = await addTask(h.store, a.id);
      const tb = await addTask(h.store, b.id);
      const tc = await addTask(h.store, c.id);
      expect(await claim([], 10)).toEqual([]);
      expect(await claim(["delta"], 10)).toEqual([]);
      expect(ids(await claim(["gamma", "alpha"], 10))).toEqual([ta.id, tc.id]);
      expect(ids(await claim(["alpha", "beta"], 10))).toEqual([tb.id]);
    });

    it("respects the limit and continues where it stopped", async () => {
      const run = await addRun(h.store, { workflow: "w" });
      const tasks = [];
      for (let i = 0; i < 5; i++) tasks.push(await addTask(h.store, run.id));
      expect(await claim(["w"], 0)).toEqual([]);
      expect(ids(await claim(["w"], 2))).toEqual(ids(tasks.slice(0, 2)));
      expect(ids(await claim(["w"], 2))).toEqual(ids(tasks.slice(2, 4)));
      expect(ids(await claim(["w"], 2))).toEqual(ids(tasks.slice(4)));
      expect(await claim(["w"], 2)).toEqual([]);
    });

    it("marks claimed rows in_progress with started and an incremented claim", async () => {
      const run = await addRun(h.store, { workflow: "w" });
      const task = await addTask(h.store, run.id);
      const [first] = await claim(["w"], 1, 1234);
      expect(first).toStrictEqual({ ...task, status: "in_progress", started: 1234, claim: 1 });
      expect(await h.store.getTask(task.id)).toStrictEqual(first);
      await h.store.transact((tx) => tx.updateTask(task.id, { status: "ready" }));
      const [again] = await claim(["w"], 1, 2000);
      expect(again).toMatchObject({ id: task.id, status: "in_progress", started: 2000, claim: 2 });
    });
  });
}
