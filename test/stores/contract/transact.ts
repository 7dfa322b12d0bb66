// Transactions: commit, rollback on throw (events included), serialization, and isolation of
// reads outside a transaction from its uncommitted writes.
import { describe, expect, it } from "vitest";
import { addRun, addTask, gate, type Harness, runInput, settle, taskInput } from "./fixtures.ts";

export function transactContract(h: Harness): void {
  describe("transact", () => {
    it("answers the callback's value and commits its writes", async () => {
      const input = runInput();
      const value = await h.store.transact(async (tx) => {
        await tx.insertRun(input);
        // Reads inside the transaction see its own writes.
        expect((await tx.getRun(input.id))?.id).toBe(input.id);
        expect(await tx.listRuns()).toHaveLength(1);
        return "done";
      });
      expect(value).toBe("done");
      expect((await h.store.getRun(input.id))?.id).toBe(input.id);
    });

    it("rolls everything back when the callback throws", async () => {
      const kept = await addRun(h.store);
      const keptTask = await addTask(h.store, kept.id);
      const before = await h.store.lastEventId();
      const failure = new Error("abort");
      const input = runInput();
      const attempt = h.store.transact(async (tx) => {
        await tx.insertRun(input);
        const task = await tx.insertTask(taskInput(input.id));
        await tx.updateTask(keptTask.id, { status: "done" });
        await tx.moveRun(input.id, 0);
        await tx.appendEvents(
          [{ name: "run.created", run_id: input.id, task_id: null, data: {} }],
          1,
        );
        await tx.appendLog({
          run_id: input.id,
          node: "start",
          task_id: task.id,
          author: "engine",
          kind: null,
          text: "x",
          created: 1,
        });
        await tx.putRegistration({ workflow: "rolled-back", target: null, pool: "default" });
        await tx.appendChunks(task.id, [{ kind: "text", text: "hi" }], 1);
        throw failure;
      });
      await expect(attempt).rejects.toBe(failure);
      expect(await h.store.getRun(input.id)).toBeNull();
      expect((await h.store.listRuns()).map((r) => [r.id, r.position])).toEqual([[kept.id, 1]]);
      expect(await h.store.listTasks({})).toStrictEqual([keptTask]);
      expect(await h.store.lastEventId()).toBe(before);
      expect(await h.store.listEvents({})).toEqual([]);
      expect(await h.store.listLog(input.id)).toEqual([]);
      expect(await h.store.listRegistrations()).toEqual([]);
      // The store stays usable after a rollback.
      expect((await addRun(h.store)).position).toBe(2);
    });

    it("runs transactions one at a time, in the order they were asked for", async () => {
      const trace: string[] = [];
      const hold = gate();
      const first = h.store.transact(async (tx) => {
        trace.push("first:start");
        await hold.wait;
        await tx.insertRun(runInput());
        trace.push("first:end");
      });
      const second = h.store.transact(async (tx) => {
        trace.push("second:start");
        await tx.insertRun(runInput());
      });
      await settle();
      const whileHeld = [...trace];
      hold.open();
      await Promise.all([first, second]);
      expect(whileHeld).toEqual(["first:start"]);
      expect(trace).toEqual(["first:start", "first:end", "second:start"]);
    });

    it("rolls back only its own writes when one transaction of a batch fails", async () => {
      // Stores may commit transactions asked for together in one batch (group commit): a
      // failing one must still take back only what it wrote, its events and their ids included.
      const outcomes = await Promise.allSettled([
        h.store.transact((tx) => tx.insertRun(runInput({ id: "kept-1" }))),
        h.store.transact(async (tx) => {
          await tx.insertRun(runInput({ id: "lost" }));
          await tx.appendEvents(
            [{ name: "run.created", run_id: "lost", task_id: null, data: {} }],
            1,
          );
          throw new Error("refused");
        }),
        h.store.transact((tx) => tx.insertRun(runInput({ id: "kept-2" }))),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
      expect((await h.store.listRuns()).map((r) => [r.id, r.position])).toEqual([
        ["kept-1", 1],
        ["kept-2", 2],
      ]);
      expect(await h.store.listEvents({})).toEqual([]);
      expect(await h.store.lastEventId()).toBe(0);
    });

    it("keeps going after a failed transaction", async () => {
      const failed = h.store.transact(async () => {
        throw new Error("first fails");
      });
      const next = addRun(h.store);
      await expect(failed).rejects.toThrow("first fails");
      expect((await next).position).toBe(1);
    });

    it("hides an open transaction's writes from reads outside it", async (ctx) => {
      if (h.options.isolatedReads === false) ctx.skip();
      const existing = await addRun(h.store, { title: "before" });
      const input = runInput();
      const inside = gate();
      const release = gate();
      const open = h.store.transact(async (tx) => {
        await tx.insertRun(input);
        await tx.updateRun(existing.id, { title: "during" });
        await tx.appendEvents(
          [{ name: "run.created", run_id: input.id, task_id: null, data: {} }],
          1,
        );
        inside.open();
        await release.wait;
      });
      await inside.wait;
      try {
        expect(await h.store.getRun(input.id)).toBeNull();
        expect((await h.store.getRun(existing.id))?.title).toBe("before");
        expect(await h.store.listRuns()).toHaveLength(1);
        expect(await h.store.lastEventId()).toBe(0);
      } finally {
        // Release even when an assertion fails, or closing the store would wait forever.
        release.open();
        await open;
      }
      expect((await h.store.getRun(input.id))?.position).toBe(2);
      expect((await h.store.getRun(existing.id))?.title).toBe("during");
      expect(await h.store.lastEventId()).toBeGreaterThan(0);
    });
  });
}
