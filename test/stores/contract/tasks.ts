// Tasks: defaults on insert, exact round-trips (absent vs null payloads, nested JSON), guarded
// updates, filters and the token lookup.
import { describe, expect, it } from "vitest";
import type { TaskRecord } from "../../../src/engine/index.ts";
import { addRun, addTask, type Harness, runInput, taskInput } from "./fixtures.ts";

const UNSET = {
  status: "ready",
  started: null,
  finished: null,
  error: null,
  result: null,
  result_present: false,
  terminal: false,
  stats: null,
  claim: 0,
  token_hash: null,
  used_s: 0,
  waiting_since: null,
  error_stack: null,
  not_before: null,
  sleep_until: null,
  sleeps: null,
} as const;

export function tasksContract(h: Harness): void {
  describe("tasks", () => {
    it("inserts a ready, unclaimed attempt and round-trips nested JSON", async () => {
      const run = await addRun(h.store);
      const input = taskInput(run.id, {
        node: "review",
        attempt: 3,
        priority: 7,
        explicit: true,
        payload: { list: [1, "two", null, { deep: [true, false] }], n: -1.5, empty: {} },
        branch: [{ count: 3, fanout: 11, index: 2, key: { name: "b" } }],
        lineage: { reason: "join", parent: 4, from_task: 11, arrivals: [12, 13, 14] },
      });
      const task = await h.store.transact((tx) => tx.insertTask(input));
      expect(task).toStrictEqual({ ...input, ...UNSET, id: task.id });
      expect(await h.store.getTask(task.id)).toStrictEqual(task);
      expect(await h.store.getTask(task.id + 1000)).toBeNull();
    });

    it("insertTasks inserts many ready attempts in order, ids ascending", async () => {
      const runs = await h.store.transact((tx) =>
        tx.insertRuns(Array.from({ length: 103 }, () => runInput())),
      );
      const inputs = runs.map((run, i) =>
        taskInput(run.id, {
          priority: i % 4,
          explicit: i % 2 === 0,
          payload_present: i % 5 !== 0,
          payload: i % 5 === 0 ? null : { n: i, nested: [{ a: "ü" }] },
          branch: i % 7 === 0 ? [{ count: 2, fanout: 1, index: 1, key: "k" }] : [],
        }),
      );
      const tasks = await h.store.transact((tx) => tx.insertTasks(inputs));
      expect(tasks.map((t) => t.run_id)).toStrictEqual(runs.map((r) => r.id));
      for (let i = 1; i < tasks.length; i++) expect(tasks[i]!.id).toBe(tasks[i - 1]!.id + 1);
      for (const [i, task] of tasks.entries()) {
        expect(task).toStrictEqual({ ...UNSET, ...inputs[i], id: task.id });
        expect(await h.store.getTask(task.id)).toStrictEqual(task);
      }
      expect(await h.store.transact((tx) => tx.insertTasks([]))).toStrictEqual([]);
      const next = await addTask(h.store, runs[0]!.id);
      expect(next.id).toBeGreaterThan(tasks.at(-1)!.id);
    });

    it("keeps an absent payload apart from a null one", async () => {
      const run = await addRun(h.store);
      const absent = await addTask(h.store, run.id, { payload_present: false, payload: null });
      const nul = await addTask(h.store, run.id, { payload_present: true, payload: null });
      const zero = await addTask(h.store, run.id, { payload: 0, lineage: null });
      expect(await h.store.getTask(absent.id)).toMatchObject({
        payload_present: false,
        payload: null,
      });
      expect(await h.store.getTask(nul.id)).toMatchObject({ payload_present: true, payload: null });
      expect(await h.store.getTask(zero.id)).toMatchObject({ payload: 0, lineage: null });
    });

    it("applies every patchable field and answers the updated row", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const patch: Partial<TaskRecord> = {
        node: "other",
        attempt: 2,
        status: "done",
        priority: -3,
        explicit: true,
        created: 5,
        started: 10,
        finished: 20,
        error: "boom",
        payload_present: false,
        payload: null,
        result: { out: ["x", { y: null }] },
        result_present: true,
        terminal: true,
        branch: [{ count: 2, fanout: 1, index: 0, key: "k" }],
        lineage: { reason: "retry", parent: task.id },
        stats: { tokens: 12, model: "m", nested: { a: [1] } },
        claim: 4,
        token_hash: "ab".repeat(32),
        used_s: 1.25,
        waiting_since: 15,
        error_stack: "Error: boom\n    at body (/wf/flows.ts:3:9)",
        not_before: 1_800_000_000_000,
        sleep_until: 1_800_000_000_500,
        sleeps: [1_700_000_000_000, 1_800_000_000_500],
      };
      const updated = await h.store.transact((tx) => tx.updateTask(task.id, patch));
      expect(updated).toStrictEqual({ ...task, ...patch });
      expect(await h.store.getTask(task.id)).toStrictEqual(updated);
      const nullResult = await h.store.transact((tx) =>
        tx.updateTask(task.id, { result: null, result_present: true, stats: null }),
      );
      expect(nullResult).toMatchObject({ result: null, result_present: true, stats: null });
      expect(await h.store.transact((tx) => tx.updateTask(999_999, { error: "x" }))).toBeNull();
    });

    it("updates only while the status guard holds", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const guarded = (status: TaskRecord["status"][]) =>
        h.store.transact((tx) => tx.updateTask(task.id, { error: "late" }, { status }));
      expect(await guarded(["in_progress", "waiting"])).toBeNull();
      expect((await h.store.getTask(task.id))?.error).toBeNull();
      expect(await guarded([])).toBeNull();
      expect(await guarded(["waiting", "ready"])).toMatchObject({ id: task.id, error: "late" });
    });

    it("updates only while the claim guard holds", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const [claimed] = await h.store.transact((tx) => tx.claimTasks([run.workflow], 1, 50));
      expect(claimed.claim).toBe(1);
      const complete = (claim: number) =>
        h.store.transact((tx) =>
          tx.updateTask(
            task.id,
            { status: "done", finished: 60 },
            { status: ["in_progress"], claim },
          ),
        );
      expect(await complete(0)).toBeNull();
      expect(await complete(2)).toBeNull();
      expect((await h.store.getTask(task.id))?.status).toBe("in_progress");
      expect(await complete(1)).toMatchObject({ status: "done", finished: 60, claim: 1 });
      expect(await complete(1)).toBeNull();
      const probe = await h.store.transact((tx) => tx.updateTask(task.id, {}, { claim: 1 }));
      expect(probe).toStrictEqual(await h.store.getTask(task.id));
    });

    it("lists by run, status and node, ordered by id", async () => {
      const a = await addRun(h.store);
      const b = await addRun(h.store);
      const t1 = await addTask(h.store, a.id, { node: "x" });
      const t2 = await addTask(h.store, b.id, { node: "x" });
      const t3 = await addTask(h.store, a.id, { node: "y" });
      await h.store.transact((tx) => tx.updateTask(t3.id, { status: "waiting" }));
      const ids = async (filter: object) => (await h.store.listTasks(filter)).map((t) => t.id);
      expect(await ids({})).toEqual([t1.id, t2.id, t3.id]);
      expect(await ids({ run_id: a.id })).toEqual([t1.id, t3.id]);
      expect(await ids({ status: ["ready"] })).toEqual([t1.id, t2.id]);
      expect(await ids({ status: ["waiting", "done"] })).toEqual([t3.id]);
      expect(await ids({ status: [] })).toEqual([]);
      expect(await ids({ node: "x" })).toEqual([t1.id, t2.id]);
      expect(await ids({ run_id: a.id, node: "x" })).toEqual([t1.id]);
      expect(await ids({ run_id: a.id, status: ["waiting"], node: "y" })).toEqual([t3.id]);
      expect(await ids({ status: ["ready"], node: "y" })).toEqual([]);
      expect(await ids({ run_id: "none" })).toEqual([]);
    });

    it("tells whether a run has a ready, in_progress or waiting task", async () => {
      const run = await addRun(h.store, { workflow: "w" });
      const other = await addRun(h.store, { workflow: "w" });
      await addTask(h.store, other.id);
      expect(await h.store.hasOutstandingTasks(run.id)).toBe(false);
      const task = await addTask(h.store, run.id);
      expect(await h.store.hasOutstandingTasks(run.id)).toBe(true);
      const statuses = ["done", "failed", "dead_letter", "cancelled"] as const;
      for (const status of statuses) {
        await h.store.transact((tx) => tx.updateTask(task.id, { status }));
        expect(await h.store.hasOutstandingTasks(run.id)).toBe(false);
      }
      for (const status of ["in_progress", "waiting", "ready"] as const) {
        await h.store.transact((tx) => tx.updateTask(task.id, { status }));
        expect(await h.store.hasOutstandingTasks(run.id)).toBe(true);
      }
      const seen = await h.store.transact(async (tx) => {
        await tx.updateTask(task.id, { status: "done" });
        return tx.hasOutstandingTasks(run.id);
      });
      expect(seen).toBe(false);
      expect(await h.store.hasOutstandingTasks("none")).toBe(false);
    });

    it("finds a task by its live token hash", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      await addTask(h.store, run.id);
      const hash = "f0".repeat(32);
      expect(await h.store.findTaskByTokenHash(hash)).toBeNull();
      await h.store.transact((tx) => tx.updateTask(task.id, { token_hash: hash }));
      expect((await h.store.findTaskByTokenHash(hash))?.id).toBe(task.id);
      await h.store.transact((tx) => tx.updateTask(task.id, { token_hash: null }));
      expect(await h.store.findTaskByTokenHash(hash)).toBeNull();
    });
  });
}
