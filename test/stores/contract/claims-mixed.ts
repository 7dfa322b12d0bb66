// The claim against a model built from the store's own reads: after any mix of writes, moves,
// deletes and rolled-back units, a claim answers exactly the ready tasks that the committed
// rows put first in dispatch order. Stores may keep claim state in memory; this is what holds it
// to the tables.
import { describe, expect, it } from "vitest";
import type {
  Json,
  RunRecord,
  RunStatus,
  StoreWriter,
  TaskRecord,
  TaskStatus,
} from "../../../src/engine/index.ts";
import { addRun, addTask, type Harness, requestInput, runInput, taskInput } from "./fixtures.ts";

const WORKFLOWS = ["w1", "w2", "w3"];
const RUN_STATUSES: RunStatus[] = ["queued", "running", "paused", "completed", "cancelled"];
const TASK_STATUSES: TaskStatus[] = ["ready", "ready", "in_progress", "waiting", "done"];

/** A small deterministic generator, so a failure replays. */
function prng(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  return { next, pick, int: (n: number) => Math.floor(next() * n) };
}

/** Dispatch order computed from plain reads: what the claim must answer. */
/** A run as the table holds it, read through the list (never the writer's own picture). */
async function listedRun(tx: StoreWriter, id: string) {
  return (await tx.listRuns()).find((r) => r.id === id) ?? null;
}

async function expectedClaim(tx: StoreWriter, workflows: string[], limit: number) {
  const runs = new Map((await tx.listRuns()).map((r) => [r.id, r]));
  const ready = await tx.listTasks({ status: ["ready"] });
  const eligible = ready.filter((t) => {
    const run = runs.get(t.run_id)!;
    return (
      workflows.includes(run.workflow) && (run.status === "queued" || run.status === "running")
    );
  });
  const pos = (t: TaskRecord) => runs.get(t.run_id)!.position;
  eligible.sort(
    (a, b) => pos(a) - pos(b) || b.priority - a.priority || a.created - b.created || a.id - b.id,
  );
  return eligible.slice(0, limit).map((t) => t.id);
}

export function mixedClaimsContract(h: Harness): void {
  describe("claims after mixed writes", () => {
    it("a rolled-back unit's inserted task is not claimable, and its claim is undone", async () => {
      const run = await addRun(h.store, { workflow: "w1" });
      const first = await addTask(h.store, run.id);
      expect(
        (await h.store.transact((tx) => tx.claimTasks(["w1"], 1, 1))).map((t) => t.id),
      ).toEqual([first.id]);
      const failing = h.store.transact(async (tx) => {
        await tx.insertTask(taskInput(run.id, { priority: 9 }));
        throw new Error("undo");
      });
      await expect(failing).rejects.toThrow("undo");
      const second = await addTask(h.store, run.id);
      const undone = h.store.transact(async (tx) => {
        expect((await tx.claimTasks(["w1"], 5, 2)).map((t) => t.id)).toEqual([second.id]);
        throw new Error("undo");
      });
      await expect(undone).rejects.toThrow("undo");
      const [again] = await h.store.transact((tx) => tx.claimTasks(["w1"], 5, 3));
      expect(again).toMatchObject({ id: second.id, status: "in_progress", claim: 1, started: 3 });
    });

    it("inside a transaction, getRun answers the transaction's own writes", async () => {
      const run = await addRun(h.store, { workflow: "w1" });
      await addTask(h.store, run.id);
      await h.store.transact((tx) => tx.claimTasks(["w1"], 1, 1));
      await h.store.transact(async (tx) => {
        const updated = await tx.updateRun(run.id, { status: "paused", updated: 7 });
        expect(await tx.getRun(run.id)).toStrictEqual(updated);
        const moved = await tx.moveRun(run.id, 0);
        expect(await tx.getRun(run.id)).toStrictEqual(moved);
      });
      expect(await h.store.getRun(run.id)).toMatchObject({ status: "paused", updated: 7 });
    });

    it("a guarded update of a claimed attempt answers the row a read gives back", async () => {
      const run = await addRun(h.store, { workflow: "w1" });
      const task = await addTask(h.store, run.id, { payload: { keep: [1, { deep: true }] } });
      const [claimed] = await h.store.transact((tx) => tx.claimTasks(["w1"], 1, 10));
      const guard = { status: ["in_progress", "waiting"] as const, claim: claimed.claim };
      await h.store.transact(async (tx) => {
        const parked = await tx.updateTask(
          task.id,
          { status: "waiting", waiting_since: 11 },
          guard,
        );
        expect(parked).toStrictEqual(await tx.getTask(task.id));
        const stale = await tx.updateTask(task.id, { status: "done" }, { ...guard, claim: 99 });
        expect(stale).toBeNull();
        // JSON as stored: an undefined member disappears, a date becomes its text.
        const raw = { n: 1, gone: undefined, at: new Date(0), list: [null, "x"] };
        const result = raw as unknown as Json;
        const patch = { status: "done" as const, finished: 12, result, result_present: true };
        const done = await tx.updateTask(task.id, { ...patch, token_hash: null }, guard);
        expect(done).toStrictEqual(await tx.getTask(task.id));
        expect(done?.result).toStrictEqual({
          n: 1,
          at: "1970-01-01T00:00:00.000Z",
          list: [null, "x"],
        });
        expect(await tx.updateTask(task.id, { status: "failed" }, guard)).toBeNull();
      });
      expect(await h.store.getTask(task.id)).toMatchObject({ status: "done", finished: 12 });
    });

    // The PostgreSQL writer holds a unit's run updates, new tasks and stale requests back for a
    // later statement (deferred.ts): what the unit asks next must still see them.
    it("a claim sees the unit's own pause, resume and new tasks, read before it or not", async () => {
      const run = await addRun(h.store, { workflow: "w1", status: "running" });
      const first = await addTask(h.store, run.id);
      const paused = await h.store.transact(async (tx) => {
        await tx.getRun(run.id);
        await tx.updateRun(run.id, { status: "paused", updated: 2 });
        return tx.claimTasks(["w1"], 5, 3);
      });
      expect(paused).toEqual([]);
      const resumed = await h.store.transact(async (tx) => {
        await tx.getRun(run.id);
        await tx.updateRun(run.id, { status: "running", updated: 4 });
        const added = await tx.insertTask(taskInput(run.id, { priority: 1 }));
        return { added, claimed: await tx.claimTasks(["w1"], 5, 5) };
      });
      expect(resumed.claimed.map((t) => t.id)).toEqual([resumed.added.id, first.id]);
      const queued = await addRun(h.store, { workflow: "w1" });
      const waiting = await addTask(h.store, queued.id);
      const started = await h.store.transact(async (tx) => {
        await tx.getRun(queued.id);
        await tx.updateRun(queued.id, { status: "running", started: true, updated: 6 });
        await tx.touchRuns([queued.id], 7);
        const [claimed] = await tx.claimTasks(["w1"], 5, 7);
        return { claimed, run: await tx.getRun(queued.id) };
      });
      expect(started.claimed.id).toBe(waiting.id);
      expect(started.run).toMatchObject({ status: "running", started: true, updated: 7 });
      expect(await h.store.getRun(queued.id)).toStrictEqual(started.run);
    });

    it("an update sees the unit's new tasks: its own row, and its run's outstanding work", async () => {
      const run = await addRun(h.store, { workflow: "w1", status: "running" });
      const ending = await addTask(h.store, run.id);
      await h.store.transact((tx) => tx.claimTasks(["w1"], 1, 1));
      const seen = await h.store.transact(async (tx) => {
        await tx.getRun(run.id);
        const added = await tx.insertTask(taskInput(run.id, { node: "next" }));
        const done = await tx.updateTask(
          ending.id,
          { status: "done", terminal: true, result: 1, result_present: true },
          { status: ["in_progress"] },
        );
        const outstanding = await tx.hasOutstandingTasks(run.id);
        const other = await tx.insertTask(taskInput(run.id, { node: "other" }));
        const later = await tx.updateTask(other.id, { not_before: 50 });
        return { added, later, done, outstanding };
      });
      expect(seen.later).toMatchObject({ node: "other", status: "ready", not_before: 50 });
      expect(seen.done).toMatchObject({ id: ending.id, status: "done" });
      expect(seen.outstanding).toBe(true);
      expect(await h.store.getTask(seen.later!.id)).toStrictEqual(seen.later);
    });

    it("updates told their runs answer each run's settling as the rows are, wrong hint or not", async () => {
      const [r1, r2, r3] = [
        await addRun(h.store, { workflow: "w1", status: "running" }),
        await addRun(h.store, { workflow: "w1", status: "running" }),
        await addRun(h.store, { workflow: "w1", status: "running" }),
      ];
      const [t1, t2, t3] = [
        await addTask(h.store, r1.id),
        await addTask(h.store, r2.id),
        await addTask(h.store, r3.id),
      ];
      await h.store.transact((tx) => tx.claimTasks(["w1"], 3, 1));
      const end = { status: "done" as const, terminal: true, result: 1, result_present: true };
      const guard = { status: ["in_progress" as const] };
      const seen = await h.store.transact(async (tx) => {
        const sent = [
          tx.updateTask(t1.id, end, guard, r1.id),
          tx.updateTask(t2.id, end, guard, r2.id),
          // Told the wrong run: the update still applies to its own task.
          tx.updateTask(t3.id, end, guard, r1.id),
        ];
        const done = await Promise.all(sent);
        const first = [
          await tx.hasOutstandingTasks(r1.id),
          await tx.hasOutstandingTasks(r2.id),
          await tx.hasOutstandingTasks(r3.id),
        ];
        const listed = (await tx.listTasks({ run_id: r2.id })).map((t) => [t.id, t.status]);
        await tx.insertTask(taskInput(r1.id, { node: "again" }));
        const after = [await tx.hasOutstandingTasks(r1.id), await tx.hasOutstandingTasks(r2.id)];
        return { done: done.map((t) => t?.status), first, listed, after };
      });
      expect(seen).toEqual({
        done: ["done", "done", "done"],
        first: [false, false, false],
        listed: [[t2.id, "done"]],
        after: [true, false],
      });
    });

    it("updates of several runs together answer each as its own update would, in order", async () => {
      const runs: RunRecord[] = [];
      for (let i = 0; i < 4; i++)
        runs.push(await addRun(h.store, { workflow: "w1", status: "running" }));
      // r0 and r1 end their only task; r2 goes on (a task left outstanding); r3's guard fails.
      const tasks: TaskRecord[] = [];
      for (const r of runs) tasks.push(await addTask(h.store, r.id));
      const claimed = await h.store.transact((tx) => tx.claimTasks(["w1"], 4, 1));
      const other = await addTask(h.store, runs[2].id, { node: "later" });
      const claimOf = (id: number) => claimed.find((t) => t.id === id)!.claim;
      const end = {
        status: "done" as const,
        terminal: true,
        result: { n: 1 },
        result_present: true,
      };
      const on = { status: "done" as const, terminal: false, result: [], result_present: true };
      const going = ["in_progress" as const];
      const seen = await h.store.transact(async (tx) => {
        // Task i of run i, ending (or going on) at moment `finished`, under its own claim.
        const update = (
          i: number,
          patch: typeof end | typeof on,
          finished: number,
          claim = true,
        ) => ({
          id: tasks[i].id,
          patch: { ...patch, finished },
          guard: { status: going, claim: claim ? claimOf(tasks[i].id) : -1 },
          runId: runs[i].id,
        });
        const done = await tx.updateTasks([
          update(0, end, 5),
          update(1, end, 6),
          update(2, on, 7),
          update(3, end, 8, false),
        ]);
        const outstanding = [];
        for (const r of runs) outstanding.push(await tx.hasOutstandingTasks(r.id));
        const listed = (await tx.listTasks({ run_id: runs[1].id })).map((t) => [t.id, t.status]);
        const run0 = await tx.getRun(runs[0].id);
        return {
          done: done.map((t) => t && [t.id, t.status, t.finished, t.terminal, t.result]),
          outstanding,
          listed,
          run0: run0?.id,
        };
      });
      expect(seen).toEqual({
        done: [
          [tasks[0].id, "done", 5, true, { n: 1 }],
          [tasks[1].id, "done", 6, true, { n: 1 }],
          [tasks[2].id, "done", 7, false, []],
          null,
        ],
        // r2 still has `later` (ready); r3's task is still in progress (its guard failed).
        outstanding: [false, false, true, true],
        listed: [[tasks[1].id, "done"]],
        run0: runs[0].id,
      });
      expect((await h.store.getTask(tasks[3].id))?.status).toBe("in_progress");
      expect((await h.store.getTask(other.id))?.status).toBe("ready");
      expect((await h.store.getTask(tasks[1].id))?.result).toEqual({ n: 1 });
    });

    it("updates of one run's tasks together: reads after them see every one", async () => {
      const a = await addRun(h.store, { workflow: "w1", status: "running" });
      const b = await addRun(h.store, { workflow: "w1", status: "running" });
      const ta = [await addTask(h.store, a.id), await addTask(h.store, a.id)];
      ta.push(await addTask(h.store, a.id, { node: "third" }));
      const tb = await addTask(h.store, b.id);
      const end = { status: "done" as const, terminal: true, result: 1, result_present: true };
      const ready = { status: ["ready" as const] };
      const seen = await h.store.transact(async (tx) => {
        const done = await tx.updateTasks([
          { id: ta[0].id, patch: end, guard: ready, runId: a.id },
          { id: tb.id, patch: end, guard: ready, runId: b.id },
          { id: ta[1].id, patch: end, guard: ready, runId: a.id },
          // Another shape, so on PostgreSQL another statement.
          { id: ta[2].id, patch: { ...end, error: null }, guard: ready, runId: a.id },
        ]);
        const outstanding = [
          await tx.hasOutstandingTasks(a.id),
          await tx.hasOutstandingTasks(b.id),
        ];
        const listed = (await tx.listTasks({ run_id: a.id })).map((t) => [t.id, t.status]);
        return { done: done.map((t) => t?.id), outstanding, listed };
      });
      expect(seen).toEqual({
        done: [ta[0].id, tb.id, ta[1].id, ta[2].id],
        outstanding: [false, false],
        listed: ta.map((t) => [t.id, "done"]),
      });
    });

    it("stale requests of several attempts in one unit all go stale", async () => {
      const run = await addRun(h.store);
      const a = await addTask(h.store, run.id);
      const b = await addTask(h.store, run.id);
      const c = await addTask(h.store, run.id);
      const asked = await h.store.transact(async (tx) => [
        await tx.insertRequest(requestInput(run.id, a.id)),
        await tx.insertRequest(requestInput(run.id, b.id, { source: "agent" })),
        await tx.insertRequest(requestInput(run.id, b.id, { source: "node" })),
        await tx.insertRequest(requestInput(run.id, c.id)),
      ]);
      await h.store.transact(async (tx) => {
        await tx.staleRequests(a.id);
        await tx.staleRequests(b.id, "agent");
        await tx.staleRequests(c.id);
      });
      const stale = await Promise.all(
        asked.map(async (r) => (await h.store.getRequest(r.id))?.stale),
      );
      expect(stale).toEqual([true, true, false, true]);
    });

    it("answers the dispatch order of the committed rows through 400 random operations", async () => {
      const rnd = prng(20261123);
      const runs: RunRecord[] = [];
      const tasks: TaskRecord[] = [];
      let claimedTotal = 0;
      let guardedWrites = 0;
      const claimedLately: TaskRecord[] = [];
      for (let step = 0; step < 400; step++) {
        const roll = rnd.next();
        const rollback = rnd.next() < 0.1;
        const work = h.store.transact(async (tx) => {
          if (roll < 0.15 || runs.length === 0) {
            const status = rnd.pick(RUN_STATUSES);
            const run = await tx.insertRun(runInput({ workflow: rnd.pick(WORKFLOWS), status }));
            expect(run, `step ${step}`).toStrictEqual(await listedRun(tx, run.id));
            runs.push(run);
          } else if (roll < 0.45) {
            const run = rnd.pick(runs);
            const spec = { priority: rnd.int(3), created: rnd.int(5) };
            tasks.push(await tx.insertTask(taskInput(run.id, spec)));
          } else if (roll < 0.5 && tasks.length) {
            // A guarded update as an outcome writes it: answered exactly as a read gives it.
            const pool = claimedLately.length && rnd.next() < 0.8 ? claimedLately : tasks;
            const target = rnd.pick(pool);
            const now = await tx.getTask(target.id);
            const guard = { status: ["in_progress", "waiting"] as const, claim: now?.claim ?? 0 };
            const patch = {
              status: rnd.pick(TASK_STATUSES),
              result: { step },
              result_present: true,
            };
            const written = await tx.updateTask(target.id, patch, guard);
            const read = await tx.getTask(target.id);
            expect(written, `step ${step}`).toStrictEqual(written === null ? null : read);
            if (now?.status === "in_progress" || now?.status === "waiting") {
              expect(written).not.toBeNull();
              guardedWrites += 1;
            }
          } else if (roll < 0.55 && tasks.length) {
            const patch =
              rnd.next() < 0.5 ? { status: rnd.pick(TASK_STATUSES) } : { priority: rnd.int(3) };
            await tx.updateTask(rnd.pick(tasks).id, patch);
          } else if (roll < 0.65) {
            // Answered exactly as a read of the table gives it, whether or not the writer
            // held the row.
            const id = rnd.pick(runs).id;
            const written = await tx.updateRun(id, {
              status: rnd.pick(RUN_STATUSES),
              updated: step,
            });
            expect(written, `step ${step}`).toStrictEqual(await listedRun(tx, id));
          } else if (roll < 0.7) {
            await tx.moveRun(rnd.pick(runs).id, rnd.int(runs.length));
          } else if (roll < 0.73) {
            const [gone] = runs.splice(rnd.int(runs.length), 1);
            await tx.deleteRun(gone.id);
            tasks.splice(0, tasks.length, ...tasks.filter((t) => t.run_id !== gone.id));
          } else {
            const workflows = WORKFLOWS.filter(() => rnd.next() < 0.6);
            const limit = 1 + rnd.int(4);
            const expected = await expectedClaim(tx, workflows, limit);
            const claimed = await tx.claimTasks(workflows, limit, step);
            expect(
              claimed.map((t) => t.id),
              `step ${step}`,
            ).toEqual(expected);
            claimedTotal += claimed.length;
            claimedLately.splice(0, claimedLately.length, ...claimed);
            for (const t of claimed) expect(await tx.getTask(t.id)).toStrictEqual(t);
          }
          if (rollback) throw new Error("rolled back");
        });
        if (rollback) await expect(work).rejects.toThrow("rolled back");
        else await work;
        // Lists kept for picking only; a rolled-back insert leaves an id that no longer exists.
        if (rollback) {
          const live = new Set((await h.store.listRuns()).map((r) => r.id));
          runs.splice(0, runs.length, ...runs.filter((r) => live.has(r.id)));
          const kept = await Promise.all(tasks.map((t) => h.store.getTask(t.id)));
          tasks.splice(0, tasks.length, ...kept.filter((t) => t !== null));
        }
      }
      const left = await h.store.transact(async (tx) => {
        // Work placed among whatever the mix left, so the last claim has something to order.
        const late = await tx.insertRun(runInput({ workflow: "w2" }));
        await tx.insertTask(taskInput(late.id, { priority: 1 }));
        await tx.insertTask(taskInput(rnd.pick(runs).id, { priority: 2 }));
        const expected = await expectedClaim(tx, WORKFLOWS, 10_000);
        expect((await tx.claimTasks(WORKFLOWS, 10_000, 999)).map((t) => t.id)).toEqual(expected);
        return expected.length;
      });
      // The mix exercised claims that found work and updates of attempts the claims took.
      expect(claimedTotal).toBeGreaterThan(20);
      expect(guardedWrites).toBeGreaterThan(5);
      expect(left).toBeGreaterThan(0);
    });
  });
}
