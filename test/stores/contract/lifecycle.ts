// Deleting a run removes everything under it and nothing else; ids are never reused.
import { describe, expect, it } from "vitest";
import type { Store, StoreWriter } from "../../../src/engine/index.ts";
import { addRun, type Harness, requestInput, runInput, taskInput } from "./fixtures.ts";

/** A run with one of every child record; answers the ids that were created. */
async function populate(store: Store, workflow = "w") {
  return store.transact(async (tx: StoreWriter) => {
    const run = await tx.insertRun(runInput({ workflow }));
    const task = await tx.insertTask(taskInput(run.id));
    const log = await tx.appendLog({
      run_id: run.id,
      node: "start",
      task_id: task.id,
      author: "engine",
      kind: "note",
      text: "n",
      created: 1,
    });
    const request = await tx.insertRequest(requestInput(run.id, task.id));
    const submission = await tx.insertSubmission({ task_id: task.id, created: 1, payload: {} });
    await tx.insertArrival({
      run_id: run.id,
      join: "j",
      fanout: task.id,
      index: 0,
      count: 1,
      task_id: task.id,
      key: null,
      value: 1,
      join_task: null,
    });
    await tx.appendChunks(task.id, [{ kind: "text", text: "x" }], 1);
    const [event] = await tx.appendEvents(
      [{ name: "run.created", run_id: run.id, task_id: null, data: {} }],
      1,
    );
    return { run, task, log, request, submission, event: event.id! };
  });
}

export function lifecycleContract(h: Harness): void {
  describe("run deletion", () => {
    it("removes the run's tasks, log, requests, submissions, arrivals, chunks and events", async () => {
      const gone = await populate(h.store);
      const kept = await populate(h.store);
      const global = await h.store.transact((tx) =>
        tx.appendEvents([{ name: "engine.started", run_id: null, task_id: null, data: {} }], 1),
      );
      await h.store.transact((tx) => tx.deleteRun(gone.run.id));

      expect(await h.store.getRun(gone.run.id)).toBeNull();
      expect(await h.store.getTask(gone.task.id)).toBeNull();
      expect(await h.store.listTasks({ run_id: gone.run.id })).toEqual([]);
      expect(await h.store.listLog(gone.run.id)).toEqual([]);
      expect(await h.store.getRequest(gone.request.id)).toBeNull();
      expect(await h.store.listRequests({ run_id: gone.run.id })).toEqual([]);
      expect(await h.store.listSubmissions(gone.task.id)).toEqual([]);
      expect(await h.store.listArrivals(gone.run.id)).toEqual([]);
      expect(await h.store.listChunks(gone.task.id, 0, 10)).toEqual([]);
      expect(await h.store.lastChunkSeq(gone.task.id)).toBe(0);
      expect(await h.store.listEvents({ run_id: gone.run.id })).toEqual([]);

      expect((await h.store.getRun(kept.run.id))?.position).toBe(1);
      expect(await h.store.listTasks({})).toHaveLength(1);
      expect(await h.store.listLog(kept.run.id)).toStrictEqual([kept.log]);
      expect(await h.store.listRequests()).toStrictEqual([kept.request]);
      expect(await h.store.listSubmissions(kept.task.id)).toStrictEqual([kept.submission]);
      expect(await h.store.listArrivals(kept.run.id)).toHaveLength(1);
      expect(await h.store.lastChunkSeq(kept.task.id)).toBe(1);
      const events = (await h.store.listEvents({})).map((e) => e.id);
      expect(events).toEqual([kept.event, global[0].id]);
    });
  });

  describe("ids", () => {
    it("keep increasing after the newest rows are deleted", async () => {
      await addRun(h.store);
      const before = await populate(h.store);
      await h.store.transact((tx) => tx.deleteRun(before.run.id));
      // The newest event went with its run, but the cursor it gave out stays known.
      expect(await h.store.listEvents({})).toEqual([]);
      expect(await h.store.lastEventId()).toBe(before.event);
      const after = await populate(h.store);
      expect(await h.store.lastEventId()).toBe(after.event);
      expect(after.task.id).toBeGreaterThan(before.task.id);
      expect(after.log.id).toBeGreaterThan(before.log.id);
      expect(after.request.id).toBeGreaterThan(before.request.id);
      expect(after.submission.id).toBeGreaterThan(before.submission.id);
      expect(after.event).toBeGreaterThan(before.event);
      expect(after.run.position).toBe(2);
    });
  });
}
