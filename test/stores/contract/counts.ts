// What is open, counted: runs by open status, attempts by live status, pending requests, and the
// ready attempts a claim could take by workflow. Ended runs, finished attempts and answered or
// stale requests are history and are not counted; the counts follow every status change.
import { describe, expect, it } from "vitest";
import {
  LIVE_TASK_STATUSES,
  OPEN_RUN_STATUSES,
  type RunStatus,
  type StoreReader,
  type StoreWriter,
  type TaskStatus,
} from "../../../src/engine/index.ts";
import { type Harness, requestInput, runInput, taskInput } from "./fixtures.ts";

const ZERO = {
  runs: { queued: 0, running: 0, paused: 0 },
  tasks: { ready: 0, in_progress: 0, waiting: 0 },
  requests_pending: 0,
};

/** Every count, by status. */
async function countsOf(reader: StoreReader) {
  const runs: Record<string, number> = {};
  for (const status of OPEN_RUN_STATUSES) runs[status] = await reader.countRuns(status);
  const tasks: Record<string, number> = {};
  for (const status of LIVE_TASK_STATUSES) tasks[status] = await reader.countTasks(status);
  return { runs, tasks, requests_pending: await reader.countPendingRequests() };
}

/** A run of `workflow` in `status` with one attempt in each of `tasks`. */
async function runWith(
  tx: StoreWriter,
  workflow: string,
  status: RunStatus,
  tasks: TaskStatus[],
): Promise<{ runId: string; taskIds: number[] }> {
  const run = await tx.insertRun(runInput({ workflow, status, started: status !== "queued" }));
  const taskIds: number[] = [];
  for (const taskStatus of tasks) {
    const task = await tx.insertTask(taskInput(run.id));
    if (taskStatus !== "ready") await tx.updateTask(task.id, { status: taskStatus });
    taskIds.push(task.id);
  }
  return { runId: run.id, taskIds };
}

export function countsContract(h: Harness): void {
  describe("counts of what is open", () => {
    it("answers zero everywhere for an empty store", async () => {
      expect(await countsOf(h.store)).toEqual(ZERO);
      expect(await h.store.countReady()).toEqual({});
    });

    it("counts open runs, live attempts and pending requests, not history", async () => {
      await h.store.transact(async (tx) => {
        await runWith(tx, "a", "queued", ["ready"]);
        await runWith(tx, "a", "running", ["in_progress", "ready", "done"]);
        const waiting = await runWith(tx, "b", "running", ["waiting", "failed"]);
        await runWith(tx, "b", "paused", ["ready"]);
        await runWith(tx, "a", "completed", ["done", "done"]);
        await runWith(tx, "b", "failed", ["dead_letter"]);
        await runWith(tx, "a", "cancelled", ["cancelled"]);
        const [asking] = waiting.taskIds;
        await tx.insertRequest(requestInput(waiting.runId, asking));
        await tx.insertRequest(requestInput(waiting.runId, asking, { answered_by: "user" }));
        await tx.insertRequest(requestInput(waiting.runId, asking, { stale: true }));
      });
      expect(await countsOf(h.store)).toEqual({
        runs: { queued: 1, running: 2, paused: 1 },
        tasks: { ready: 3, in_progress: 1, waiting: 1 },
        requests_pending: 1,
      });
      // The paused run's ready attempt cannot be claimed, so it is not in the ready depth.
      expect(await h.store.countReady()).toEqual({ a: 2 });
    });

    it("follows status changes, inside a transaction too", async () => {
      const { runId, taskIds } = await h.store.transact((tx) =>
        runWith(tx, "a", "queued", ["ready"]),
      );
      await h.store.transact(async (tx) => {
        await tx.updateRun(runId, { status: "running", started: true });
        await tx.updateTask(taskIds[0], { status: "in_progress" });
        const inside = await countsOf(tx);
        expect(inside.runs).toEqual({ queued: 0, running: 1, paused: 0 });
        expect(inside.tasks).toEqual({ ready: 0, in_progress: 1, waiting: 0 });
      });
      await h.store.transact(async (tx) => {
        await tx.updateTask(taskIds[0], { status: "done" });
        await tx.updateRun(runId, { status: "completed" });
      });
      expect(await countsOf(h.store)).toEqual(ZERO);
      expect(await h.store.countReady()).toEqual({});
    });
  });

  describe("probe", () => {
    it("answers the schema version, which a fresh store has brought up to date", async () => {
      const probe = await h.store.probe();
      expect(probe.expected).toBeGreaterThan(0);
      expect(probe.schema).toBe(probe.expected);
    });
  });
}
