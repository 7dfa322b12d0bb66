// Timers: a ready attempt's `not_before` (a retry's backoff) keeps it from being claimed until
// the claim's `now` reaches it; `nextNotBefore` answers the dispatcher's next wake moment; a
// sleep's wake times round-trip with the row.
import { describe, expect, it } from "vitest";
import { addRun, addTask, type Harness } from "./fixtures.ts";

export function timersContract(h: Harness): void {
  const claim = (workflows: string[], limit: number, now: number) =>
    h.store.transact((tx) => tx.claimTasks(workflows, limit, now));
  const ids = (tasks: Array<{ id: number }>) => tasks.map((t) => t.id);
  const defer = (id: number, at: number | null) =>
    h.store.transact((tx) => tx.updateTask(id, { not_before: at }));

  describe("timers", () => {
    it("claims a ready attempt only once its not-before has come", async () => {
      const run = await addRun(h.store, { workflow: "w" });
      const later = await addTask(h.store, run.id, { priority: 5 });
      const now = await addTask(h.store, run.id);
      await defer(later.id, 1000);
      // Claimed once in the index's picture before, and after the not-before is written.
      expect(ids(await claim(["w"], 5, 999))).toEqual([now.id]);
      expect(await claim(["w"], 5, 999)).toEqual([]);
      const [due] = await claim(["w"], 5, 1000);
      expect(due).toMatchObject({ id: later.id, status: "in_progress", not_before: 1000 });
    });

    it("keeps dispatch order among attempts that became due", async () => {
      const first = await addRun(h.store, { workflow: "w" });
      const second = await addRun(h.store, { workflow: "w" });
      const s1 = await addTask(h.store, second.id);
      const f1 = await addTask(h.store, first.id);
      const f2 = await addTask(h.store, first.id, { priority: 3 });
      await defer(s1.id, 100);
      await defer(f1.id, 300);
      await defer(f2.id, 200);
      expect(await claim(["w"], 5, 50)).toEqual([]);
      expect(ids(await claim(["w"], 5, 5000))).toEqual([f2.id, f1.id, s1.id]);
    });

    it("claims at once when the not-before is cleared or set in the past", async () => {
      const run = await addRun(h.store, { workflow: "w" });
      const a = await addTask(h.store, run.id);
      const b = await addTask(h.store, run.id);
      await defer(a.id, 10_000);
      await defer(b.id, 10_000);
      expect(await claim(["w"], 5, 500)).toEqual([]);
      await defer(a.id, null);
      await defer(b.id, 400);
      expect(ids(await claim(["w"], 5, 500))).toEqual([a.id, b.id]);
    });

    it("a deferred attempt that stops being ready is never claimed", async () => {
      const run = await addRun(h.store, { workflow: "w" });
      const task = await addTask(h.store, run.id);
      await defer(task.id, 100);
      await h.store.transact((tx) => tx.updateTask(task.id, { status: "cancelled" }));
      expect(await claim(["w"], 5, 1000)).toEqual([]);
    });

    it("answers the next not-before after a moment, by workflow, ready rows only", async () => {
      const a = await addRun(h.store, { workflow: "alpha" });
      const b = await addRun(h.store, { workflow: "beta", status: "paused" });
      expect(await h.store.nextNotBefore(["alpha"], 0)).toBeNull();
      const t1 = await addTask(h.store, a.id);
      const t2 = await addTask(h.store, a.id);
      const t3 = await addTask(h.store, b.id);
      const t4 = await addTask(h.store, a.id);
      await defer(t1.id, 500);
      await defer(t2.id, 300);
      await defer(t3.id, 200);
      await defer(t4.id, 100);
      await h.store.transact((tx) => tx.updateTask(t4.id, { status: "done" }));
      expect(await h.store.nextNotBefore(["alpha"], 0)).toBe(300);
      expect(await h.store.nextNotBefore(["alpha"], 300)).toBe(500);
      expect(await h.store.nextNotBefore(["alpha"], 500)).toBeNull();
      expect(await h.store.nextNotBefore(["alpha", "beta"], 0)).toBe(200);
      expect(await h.store.nextNotBefore([], 0)).toBeNull();
      expect(await h.store.transact((tx) => tx.nextNotBefore(["beta"], 0))).toBe(200);
    });

    it("stores a sleeping attempt's wake times and clears them", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const asleep = await h.store.transact((tx) =>
        tx.updateTask(task.id, { status: "waiting", sleep_until: 9000, sleeps: [5000, 9000] }),
      );
      expect(asleep).toMatchObject({ sleep_until: 9000, sleeps: [5000, 9000] });
      expect(await h.store.getTask(task.id)).toStrictEqual(asleep);
      const woke = await h.store.transact((tx) =>
        tx.updateTask(task.id, { status: "in_progress", sleep_until: null }),
      );
      expect(woke).toMatchObject({ sleep_until: null, sleeps: [5000, 9000] });
      const reset = await h.store.transact((tx) => tx.updateTask(task.id, { sleeps: null }));
      expect(reset?.sleeps).toBeNull();
      expect((await h.store.getTask(task.id))?.sleeps).toBeNull();
    });
  });
}
