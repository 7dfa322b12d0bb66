// Operations in bulk and retention: selecting runs oldest first with a keyset, and deleting many
// runs in one transaction with one renumbering of the dispatch list.
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../../src/engine/index.ts";
import { addRun, addTask, dispatchList, type Harness } from "./fixtures.ts";

export function bulkContract(h: Harness): void {
  describe("runs in bulk", () => {
    it("selects by statuses, workflow, created and updated before, oldest first, by keyset", async () => {
      const t = 1_800_000_000_000;
      // Inserted out of created order: the selection's order is created then id, not position.
      const c = await addRun(h.store, { id: "c", created: t + 30, updated: t + 90 });
      const a = await addRun(h.store, { id: "a", created: t + 10, updated: t + 50 });
      const b = await addRun(h.store, {
        id: "b",
        created: t + 10,
        updated: t + 60,
        status: "failed",
        workflow: "deploy",
      });
      const d = await addRun(h.store, {
        id: "d",
        created: t + 40,
        updated: t + 70,
        status: "completed",
      });
      const ids = async (q: object) =>
        (await h.store.selectRuns({ limit: 100, ...q })).map((r) => r.id);
      expect(await ids({})).toEqual([a.id, b.id, c.id, d.id]);
      expect(await ids({ limit: 2 })).toEqual([a.id, b.id]);
      expect(await ids({ after: { created: t + 10, id: "a" } })).toEqual([b.id, c.id, d.id]);
      expect(await ids({ after: { created: t + 10, id: "b" }, limit: 1 })).toEqual([c.id]);
      expect(await ids({ statuses: ["failed", "completed"] })).toEqual([b.id, d.id]);
      expect(await ids({ statuses: [] })).toEqual([]);
      expect(await ids({ workflow: "deploy" })).toEqual([b.id]);
      expect(await ids({ createdBefore: t + 30 })).toEqual([a.id, b.id]);
      expect(await ids({ updatedBefore: t + 70 })).toEqual([a.id, b.id]);
      expect(
        await ids({ statuses: ["queued"], createdBefore: t + 31, updatedBefore: t + 91 }),
      ).toEqual([a.id, c.id]);
      const [first] = await h.store.selectRuns({ limit: 1 });
      expect(first).toStrictEqual(await h.store.getRun(a.id));
    });

    it("deletes many runs with their records and renumbers the list densely", async () => {
      const runs: RunRecord[] = [];
      for (let i = 0; i < 7; i++) runs.push(await addRun(h.store));
      const task = await addTask(h.store, runs[1]!.id);
      await h.store.transact((tx) =>
        tx.appendEvents(
          [{ name: "run.updated", run_id: runs[1]!.id, task_id: task.id, data: {} }],
          1,
        ),
      );
      const gone = [runs[1]!.id, runs[3]!.id, runs[4]!.id, "no-such-run", runs[6]!.id];
      await h.store.transact((tx) => tx.deleteRuns(gone));
      expect(await h.store.getRun(runs[1]!.id)).toBeNull();
      expect(await h.store.getTask(task.id)).toBeNull();
      expect(await h.store.listEvents({ run_id: runs[1]!.id })).toEqual([]);
      expect(await dispatchList(h.store)).toEqual([
        [runs[0]!.id, 1],
        [runs[2]!.id, 2],
        [runs[5]!.id, 3],
      ]);
      const next = await addRun(h.store);
      expect(next.position).toBe(4);
      await h.store.transact((tx) => tx.deleteRuns([]));
      await h.store.transact((tx) => tx.deleteRuns([runs[0]!.id, next.id]));
      expect(await dispatchList(h.store)).toEqual([
        [runs[2]!.id, 1],
        [runs[5]!.id, 2],
      ]);
    });
  });
}
