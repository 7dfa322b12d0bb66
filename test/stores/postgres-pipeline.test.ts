// The PostgreSQL store's pipelined writes (transaction.ts, `Db.write`): a write whose answer
// nobody reads is sent without waiting or held for a later statement (deferred.ts), the unit's
// later statements see it, and its failure is the unit's failure (rolled back alone when it
// shares a batch), never a silent loss. And the batch's run cache (run-cache.ts): what a unit
// reads of a run is what PostgreSQL has, in the unit, after a unit rolled back, and after
// another server's commit. And the ids and positions a batch hands out itself (batch-ids.ts):
// what a rolled-back unit took is given back (events, positions) or skipped (task ids), and
// what PostgreSQL's own counters say afterwards follows on.
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { StoreWriter } from "../../src/engine/index.ts";
import { openPostgresStore, type PostgresStore } from "../../src/stores/postgres/index.ts";
import { BehindFailedUnit } from "../../src/stores/postgres/transaction.ts";
import { dropSchemas, freshSchema, postgres, withAdmin, withSchema } from "../support/postgres.ts";
import { eventually } from "../support/wait.ts";
import {
  addRun,
  addTask,
  dispatchList,
  requestInput,
  runInput,
  taskInput,
} from "./contract/fixtures.ts";

const schemas: string[] = [];
const open: PostgresStore[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await dropSchemas(schemas);
});

let lastSchema = "";
async function store(): Promise<PostgresStore> {
  const schema = freshSchema("pipe");
  schemas.push(schema);
  lastSchema = schema;
  const s = await openPostgresStore(withSchema(postgres.url!, schema));
  open.push(s);
  return s;
}

/** Runs `fn` with every statement the writer sends recorded in `sent` (its text). */
async function recordSent<T>(sent: string[], fn: () => Promise<T>): Promise<T> {
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const q = args[0] as string | { text: string };
    sent.push(typeof q === "string" ? q : q.text);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return await fn();
  } finally {
    pg.Client.prototype.query = query;
  }
}

describe.skipIf(postgres.url === null)("postgres pipelined writes", () => {
  it("a later read in the unit sees a write sent without waiting", async () => {
    const s = await store();
    const run = await addRun(s);
    const updated = await s.transact(async (tx) => {
      await tx.touchRuns([run.id], 123_456);
      return (await tx.getRun(run.id))!.updated;
    });
    expect(updated).toBe(123_456);
  });

  it("a failed write fails its unit with its own error, and the units sent behind it", async () => {
    const s = await store();
    const run = await addRun(s);
    const before = s.transact((tx) => tx.insertRun(runInput({ id: "pipe-before" })));
    const bad = s.transact(async (tx) => {
      await tx.insertRun(runInput({ id: "pipe-gone" }));
      // not a bigint: PostgreSQL refuses it, after the callback has moved on
      await tx.touchRuns([run.id], "soon" as unknown as number);
      return "went on";
    });
    // Sent behind the failed write, before the batch knew: rolled back with it.
    const behind = s.transact((tx) => tx.insertRun(runInput({ id: "pipe-behind" })));
    const [b, g, h] = await Promise.allSettled([before, bad, behind]);
    expect(b).toMatchObject({ status: "fulfilled", value: { id: "pipe-before", position: 2 } });
    expect(g).toMatchObject({ status: "rejected", reason: { message: /bigint/ } });
    expect(h).toMatchObject({ status: "rejected", reason: { name: "BehindFailedUnit" } });
    expect((h as PromiseRejectedResult).reason).toBeInstanceOf(BehindFailedUnit);
    expect((h as PromiseRejectedResult).reason.cause).toBe((g as PromiseRejectedResult).reason);
    expect(await s.getRun("pipe-gone")).toBeNull();
    expect(await s.getRun("pipe-behind")).toBeNull();
    expect(await dispatchList(s)).toEqual([
      [run.id, 1],
      ["pipe-before", 2],
    ]);
  });

  it("after a failed write the batch goes back to its unit's savepoint and goes on", async () => {
    const s = await store();
    const run = await addRun(s, { id: "go-0" });
    const task = await addTask(s, run.id);
    const event = (n: number) => ({
      name: "run.updated" as const,
      ...{ run_id: run.id, task_id: null, data: { n } },
    });
    // Each unit: a run, a task, an event, all sent and not waited for; the task read back.
    const unit = (n: number, how: "ok" | "writes" | "bad write" | "refuse" | "caught") =>
      s.transact(async (tx) => {
        const added = await tx.insertRun(runInput({ id: `go-${n}` }));
        const inserted = await tx.insertTask(taskInput(run.id, { node: `n${n}` }));
        await tx.appendEvents([event(n)], n);
        // Held, then sent at the callback's end: the callback never sees it fail.
        if (how === "bad write") await tx.touchRuns([run.id], "soon" as unknown as number);
        else if (how === "refuse") throw new Error(`refused ${n}`);
        else if (how === "caught") await tx.getTask(inserted.id).catch(() => null);
        else if (how === "ok") await tx.updateTask(task.id, { result: n, result_present: true });
        return { position: added.position, task: inserted.id };
      });
    const outcomes = await Promise.allSettled([
      unit(1, "ok"),
      unit(2, "bad write"), // fails: its own error
      unit(3, "writes"), // sent behind it: rolled back with it
      unit(4, "refuse"), // sent behind it too (the batch finds the failure here)
      unit(5, "ok"), // after the batch went back: commits
      unit(6, "bad write"), // fails again, alone, found at the batch's end
      unit(7, "caught"), // sent behind that one: its read failed, it went on, rolled back
    ]);
    const how = outcomes.map((o) =>
      o.status === "fulfilled" ? "ok" : /bigint/.test(o.reason.message) ? "own" : o.reason.name,
    );
    expect(how).toEqual([
      "ok",
      "own",
      "BehindFailedUnit",
      "BehindFailedUnit",
      "ok",
      "own",
      "BehindFailedUnit",
    ]);
    const kept = [outcomes[0], outcomes[4]].map(
      (o) => (o as PromiseFulfilledResult<{ position: number; task: number }>).value,
    );
    // Positions and event ids given back by the rolled-back units; task ids skipped.
    expect(kept.map((k) => k.position)).toEqual([2, 3]);
    expect(await dispatchList(s)).toEqual([
      ["go-0", 1],
      ["go-1", 2],
      ["go-5", 3],
    ]);
    const stored = await s.listEvents({});
    expect(stored.map((e) => e.data)).toEqual([{ n: 1 }, { n: 5 }]);
    expect(stored[1].id).toBe(stored[0].id! + 1);
    const tasks = await s.listTasks({ run_id: run.id });
    expect(tasks.map((t) => t.node)).toEqual([task.node, "n1", "n5"]);
    expect(tasks[0].result).toBe(5);
    expect(await s.getRun("go-0")).toMatchObject({ updated: run.updated });
    // The batch's run cache forgot what the rolled-back units wrote: the next batch reads again.
    expect(await s.transact(async (tx) => (await tx.getRun("go-3")) ?? "none")).toBe("none");
  });

  it("a write pg refuses to send fails its unit only: the batch knows before the next unit", async () => {
    const s = await store();
    const run = await addRun(s);
    // pg refuses the value while sending (PostgreSQL never sees the statement, the transaction
    // goes on), and says so at once: the unit is rolled back before the next one's savepoint.
    const unsendable = {
      toPostgres: () => {
        throw new Error("no such value");
      },
    };
    const outcomes = await Promise.allSettled([
      s.transact((tx) => tx.insertRun(runInput({ id: "local-before" }))),
      s.transact(async (tx) => {
        await tx.insertRun(runInput({ id: "local-bad" }));
        await tx.touchRuns([run.id], unsendable as unknown as number);
      }),
      s.transact((tx) => tx.insertRun(runInput({ id: "local-after" }))),
    ]);
    expect(outcomes.map((o) => (o.status === "rejected" ? o.reason.message : o.status))).toEqual([
      "fulfilled",
      "no such value",
      "fulfilled",
    ]);
    expect(await dispatchList(s)).toEqual([
      [run.id, 1],
      ["local-before", 2],
      ["local-after", 3],
    ]);
  });

  it("a statement sent behind a BEGIN whose lock failed fails, and the batch changes nothing", async () => {
    const s = await store();
    const run = await addRun(s);
    const task = await addTask(s, run.id);
    const schema = lastSchema;
    const outcome = await withAdmin(async (admin) => {
      // The schema's write lock, held here: the store's BEGIN waits for it.
      await admin.query("SELECT pg_advisory_lock(hashtext($1))", [`yardmaster:${schema}:write`]);
      // The unit's update goes out behind BEGIN without waiting for it.
      const unit = s.transact((tx) => tx.updateTask(task.id, { status: "done", result: 1 }));
      unit.catch(() => {});
      const waiting = await eventually(async () => {
        const { rows } = await admin.query(
          "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%pg_advisory_xact_lock%'",
        );
        return rows[0]?.pid as number | undefined;
      }, "the store's BEGIN waiting for the lock");
      // Its lock wait fails (as a lock timeout would); so does what was sent behind it.
      await admin.query("SELECT pg_cancel_backend($1)", [waiting]);
      const settled = await unit.then(
        () => "committed",
        (error: unknown) => String(error),
      );
      await admin.query("SELECT pg_advisory_unlock(hashtext($1))", [`yardmaster:${schema}:write`]);
      return settled;
    });
    expect(outcome).toMatch(/cancel/i);
    expect((await s.getTask(task.id))?.status).toBe("ready");
    // The store goes on: the next unit commits.
    await s.transact((tx) => tx.updateTask(task.id, { status: "done", result: 2 }));
    expect((await s.getTask(task.id))?.result).toBe(2);
  });

  it("a lone unit whose write failed is rolled back", async () => {
    const s = await store();
    const run = await addRun(s);
    await expect(
      s.transact(async (tx) => {
        await tx.insertRun(runInput({ id: "pipe-alone" }));
        await tx.touchRuns([run.id], "soon" as unknown as number);
      }),
    ).rejects.toThrow(/bigint/);
    expect(await s.getRun("pipe-alone")).toBeNull();
  });

  it("a lone unit's COMMIT goes out before its last write has answered; the next batch sees it", async () => {
    const s = await store();
    const run = await addRun(s);
    const seen: string[] = [];
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const q = args[0] as string | { text: string };
      const text = (typeof q === "string" ? q : q.text).trim();
      const word = /COMMIT$/.test(text) ? "COMMIT" : text.split(/\s+/).slice(0, 3).join(" ");
      seen.push(`sent ${word}`);
      const answer = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
      answer.then(
        () => seen.push(`answered ${word}`),
        () => {},
      );
      return answer;
    } as typeof query;
    try {
      await s.transact(async (tx) => {
        await tx.appendEvents(
          [{ name: "run.updated", run_id: run.id, task_id: null, data: { n: 1 } }],
          1,
        );
      });
    } finally {
      pg.Client.prototype.query = query;
    }
    // The unit's one statement besides BEGIN and COMMIT: its event append, not waited for.
    const write = seen.find((x) => x.startsWith("sent ") && !/BEGIN|COMMIT/.test(x))!.slice(5);
    expect(seen.indexOf("sent COMMIT")).toBeGreaterThan(seen.indexOf(`sent ${write}`));
    expect(seen.indexOf("sent COMMIT")).toBeLessThan(seen.indexOf(`answered ${write}`));
    expect((await s.listEvents({ run_id: run.id })).map((e) => e.data)).toEqual([{ n: 1 }]);
  });

  it("a held write rides in the event append, and fails the unit when it fails there", async () => {
    const s = await store();
    const run = await addRun(s);
    const task = await addTask(s, run.id);
    const request = await s.transact((tx) => tx.insertRequest(requestInput(run.id, task.id)));
    const event = { name: "run.updated" as const, run_id: run.id, task_id: null, data: {} };
    await s.transact(async (tx) => {
      await tx.staleRequests(task.id);
      await tx.touchRuns([run.id], 222_222);
      await tx.appendEvents([event], 222_222);
    });
    expect((await s.getRequest(request.id))!.stale).toBe(true);
    expect((await s.getRun(run.id))!.updated).toBe(222_222);
    expect((await s.listEvents({})).map((e) => e.name)).toEqual(["run.updated"]);
    await expect(
      s.transact(async (tx) => {
        await tx.touchRuns([run.id], "soon" as unknown as number);
        await tx.appendEvents([event], 333_333);
      }),
    ).rejects.toThrow(/bigint/);
    expect(await s.listEvents({})).toHaveLength(1);
  });

  it("a held write is sent before a statement that reads its table, and at the unit's end", async () => {
    const s = await store();
    const run = await addRun(s);
    const task = await addTask(s, run.id);
    const request = await s.transact((tx) => tx.insertRequest(requestInput(run.id, task.id)));
    const pending = await s.transact(async (tx) => {
      await tx.staleRequests(task.id);
      await tx.insertTask({ ...(await tx.getTask(task.id))!, attempt: 2 });
      return tx.listRequests({ task_id: task.id, pending: true });
    });
    expect(pending).toEqual([]);
    await s.transact((tx) => tx.updateRequest(request.id, { stale: false }));
    await s.transact((tx) => tx.staleRequests(task.id));
    expect((await s.getRequest(request.id))!.stale).toBe(true);
  });

  it("units of one batch read a run as it is, also after a unit rolled back", async () => {
    const s = await store();
    const run = await addRun(s, { title: "first" });
    const title = async (tx: StoreWriter) => (await tx.getRun(run.id))!.title;
    const outcomes = await Promise.allSettled([
      s.transact(title),
      s.transact(async (tx) => {
        await tx.updateRun(run.id, { title: "lost" });
        expect(await title(tx)).toBe("lost");
        throw new Error("refused");
      }),
      s.transact(title),
      s.transact(async (tx) => (await tx.updateRun(run.id, { title: "kept" })).title),
      s.transact(title),
      s.transact(async (tx) => {
        await tx.touchRuns([run.id], 444_444);
        return (await tx.getRun(run.id))!.updated;
      }),
    ]);
    const values = outcomes.map((o) => (o.status === "fulfilled" ? o.value : "refused"));
    expect(values).toEqual(["first", "refused", "first", "kept", "kept", 444_444]);
    expect(await s.getRun(run.id)).toMatchObject({ title: "kept", updated: 444_444 });
  });

  it("an updated task's run, as the update found it, is the run a unit reads next", async () => {
    const s = await store();
    const run = await addRun(s, { input: { list: [1, "two", null], deep: { n: 2 ** 40 } } });
    const task = await addTask(s, run.id);
    const read = await s.transact(async (tx) => {
      await tx.updateRun(run.id, { status: "running", started: true });
      await tx.updateTask(task.id, { status: "in_progress" });
      return tx.getRun(run.id);
    });
    expect(read).toStrictEqual(await s.getRun(run.id));
    expect(read).toMatchObject({ status: "running", started: true });
  });

  it("a run changed by another server is read again in the next batch", async () => {
    const schema = freshSchema("pipe");
    schemas.push(schema);
    const a = await openPostgresStore(withSchema(postgres.url!, schema));
    const b = await openPostgresStore(withSchema(postgres.url!, schema));
    open.push(a, b);
    const run = await addRun(a, { title: "a" });
    expect(await a.transact(async (tx) => (await tx.getRun(run.id))!.title)).toBe("a");
    await b.transact((tx) => tx.updateRun(run.id, { title: "b" }));
    expect(await a.transact(async (tx) => (await tx.getRun(run.id))!.title)).toBe("b");
  });

  it("a run with nothing outstanding answers its tasks and arrivals as the lists do", async () => {
    const s = await store();
    const run = await addRun(s);
    const done = await addTask(s, run.id);
    const dead = await addTask(s, run.id, { node: "b", payload_present: false, payload: null });
    await s.transact(async (tx) => {
      await tx.updateTask(done.id, { status: "done", result: { a: [1] }, result_present: true });
      await tx.updateTask(dead.id, { status: "dead_letter", error: "no", used_s: 0.25 });
      for (const index of [1, 0]) {
        await tx.insertArrival({
          ...{ run_id: run.id, join: "j", fanout: done.id, index, count: 2 },
          ...{ task_id: done.id, key: null, value: { index }, join_task: null },
        });
      }
    });
    const tasks = await s.listTasks({ run_id: run.id });
    const arrivals = await s.listArrivals(run.id);
    const seen = await s.transact(async (tx) => ({
      outstanding: await tx.hasOutstandingTasks(run.id),
      tasks: await tx.listTasks({ run_id: run.id }),
      arrivals: await tx.listArrivals(run.id),
    }));
    expect(seen).toStrictEqual({ outstanding: false, tasks, arrivals });
    // A statement between the probe and the list: read again.
    const result = await s.transact(async (tx) => {
      await tx.hasOutstandingTasks(run.id);
      await tx.updateTask(done.id, { result: "changed" });
      return (await tx.listTasks({ run_id: run.id }))[0].result;
    });
    expect(result).toBe("changed");
    await addTask(s, run.id, { node: "c" });
    expect(await s.transact((tx) => tx.hasOutstandingTasks(run.id))).toBe(true);
  });

  it("a rolled-back unit gives its event ids and positions back, and skips its task ids", async () => {
    const s = await store();
    const run = await addRun(s, { id: "ids-0" });
    const unit = (n: number, fail: boolean) =>
      s.transact(async (tx) => {
        const added = await tx.insertRun(runInput({ id: `ids-${n}` }));
        const task = await tx.insertTask(taskInput(run.id));
        const events = await tx.appendEvents(
          [{ name: "run.created", run_id: added.id, task_id: task.id, data: { n } }],
          n,
        );
        if (fail) throw new Error("refused");
        return { position: added.position, task: task.id, event: events[0].id };
      });
    const outcomes = await Promise.allSettled([unit(1, false), unit(2, true), unit(3, false)]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    const [a, , c] = outcomes.map((o) => (o.status === "fulfilled" ? o.value : null)) as Array<{
      position: number;
      task: number;
      event: number;
    }>;
    expect([a.position, c.position]).toEqual([2, 3]);
    expect(c.event).toBe(a.event + 1);
    expect(c.task).toBeGreaterThan(a.task + 1);
    expect(await dispatchList(s)).toEqual([
      ["ids-0", 1],
      ["ids-1", 2],
      ["ids-3", 3],
    ]);
    const stored = await s.listEvents({});
    expect(stored.map((e) => [e.id, e.data])).toEqual([
      [a.event, { n: 1 }],
      [c.event, { n: 3 }],
    ]);
    expect(await s.lastEventId()).toBe(c.event);
    expect((await s.listTasks({ run_id: run.id })).map((t) => t.id)).toEqual([a.task, c.task]);
    // PostgreSQL's own sequence follows on from the ids the batch handed out.
    const next = await withAdmin(async (client) => {
      await client.query(`SET search_path TO ${lastSchema}`);
      const { rows } = await client.query("SELECT nextval('tasks_id_seq') AS id");
      return Number(rows[0].id);
    });
    expect(next).toBeGreaterThan(c.task);
  });

  it("positions follow deletes and moves in the same batch", async () => {
    const s = await store();
    for (const id of ["p1", "p2", "p3"]) await addRun(s, { id });
    const positions = await Promise.all([
      s.transact((tx) => tx.deleteRun("p1")),
      s.transact(async (tx) => (await tx.insertRun(runInput({ id: "p4" }))).position),
      s.transact(async (tx) => {
        await tx.deleteRuns(["p2", "gone"]);
        await tx.moveRun("p4", 0);
        return (await tx.insertRuns([runInput({ id: "p5" }), runInput({ id: "p6" })])).map(
          (r) => r.position,
        );
      }),
    ]);
    expect(positions.slice(1)).toEqual([3, [3, 4]]);
    expect(await dispatchList(s)).toEqual([
      ["p4", 1],
      ["p3", 2],
      ["p5", 3],
      ["p6", 4],
    ]);
  });

  it("a submit's run and task, held, are stored by the append and seen by a later read", async () => {
    const s = await store();
    const ended = await s.transact(async (tx) => {
      const run = await tx.insertRun(runInput({ id: "held-run" }));
      const [a, b] = await Promise.all([
        tx.insertTask(taskInput(run.id)),
        tx.insertTask(taskInput(run.id, { node: "b" })),
      ]);
      await tx.updateRun(run.id, { status: "running", started: true, updated: 5 });
      await tx.touchRuns([run.id], 6);
      await tx.appendEvents([{ name: "run.created", run_id: run.id, task_id: a.id, data: {} }], 6);
      // A read of the table sends what is held first.
      return { ids: [a.id, b.id], listed: await tx.listTasks({ run_id: run.id }) };
    });
    expect(ended.listed.map((t) => t.id)).toEqual(ended.ids);
    expect(await s.getRun("held-run")).toMatchObject({ status: "running", started: true });
    expect((await s.getRun("held-run"))?.updated).toBe(6);
    expect((await s.listTasks({ run_id: "held-run" })).map((t) => t.node)).toEqual(["start", "b"]);
  });

  it("a completed attempt's update answers the settling probe until a write could change it", async () => {
    const s = await store();
    const run = await addRun(s);
    const [a, b] = await s.transact(async (tx) => [
      await tx.insertTask(taskInput(run.id)),
      await tx.insertTask(taskInput(run.id, { node: "b" })),
    ]);
    const arrival = (index: number) => ({
      ...{ run_id: run.id, join: "j", fanout: a.id, index, count: 2 },
      ...{ task_id: a.id, key: null, value: { index }, join_task: null },
    });
    const seen = await s.transact(async (tx) => {
      await tx.updateTask(a.id, { status: "done", terminal: false });
      // b is still ready; an arrival cannot change that.
      await tx.insertArrival(arrival(0));
      const first = await tx.hasOutstandingTasks(run.id);
      await tx.updateTask(b.id, { status: "done", terminal: true, result: 1 });
      // Nothing outstanding; the lists show the arrival written before the update.
      const second = await tx.hasOutstandingTasks(run.id);
      const before = (await tx.listArrivals(run.id)).length;
      // And one written after the update and the probe.
      await tx.insertArrival(arrival(1));
      const arrivals = await tx.listArrivals(run.id);
      const tasks = await tx.listTasks({ run_id: run.id });
      // A new task after the answer: outstanding again.
      await tx.insertTask(taskInput(run.id, { node: "c" }));
      const third = await tx.hasOutstandingTasks(run.id);
      return { first, second, third, before, arrivals: arrivals.length, tasks };
    });
    expect(seen).toMatchObject({ first: true, second: false, third: true, before: 1, arrivals: 2 });
    expect(seen.tasks.map((t) => [t.node, t.status])).toEqual([
      ["start", "done"],
      ["b", "done"],
    ]);
  });

  it("updates of several runs' tasks go as one statement, whose settling reads answer the probes", async () => {
    const s = await store();
    const runs = [await addRun(s), await addRun(s), await addRun(s)];
    const tasks = [await addTask(s, runs[0].id), await addTask(s, runs[1].id)];
    tasks.push(await addTask(s, runs[2].id));
    const left = await addTask(s, runs[2].id, { node: "left" });
    const sent: string[] = [];
    const seen = await s.transact((tx) =>
      recordSent(sent, async () => {
        const end = { status: "done" as const, terminal: true, result: 1, result_present: true };
        const done = await tx.updateTasks(
          tasks.map((t, i) => ({
            id: t.id,
            patch: end,
            guard: { status: ["ready" as const] },
            runId: runs[i].id,
          })),
        );
        const outstanding = [];
        for (const run of runs) outstanding.push(await tx.hasOutstandingTasks(run.id));
        const listed = (await tx.listTasks({ run_id: runs[0].id })).map((t) => t.status);
        return { done: done.map((t) => t?.status), outstanding, listed };
      }),
    );
    expect(seen).toEqual({
      done: ["done", "done", "done"],
      outstanding: [false, false, true],
      listed: ["done"],
    });
    // One statement for the three updates, and nothing read again for the probes and the list.
    expect(sent.filter((text) => /\btasks\b/.test(text))).toHaveLength(1);
    expect((await s.getTask(left.id))?.status).toBe("ready");
  });

  it("updates of one run's tasks go as one statement; its settling is read again after them", async () => {
    const s = await store();
    const run = await addRun(s);
    const tasks = [await addTask(s, run.id), await addTask(s, run.id), await addTask(s, run.id)];
    const sent: string[] = [];
    const seen = await s.transact((tx) =>
      recordSent(sent, async () => {
        const end = { status: "done" as const, terminal: true, result: 1, result_present: true };
        const done = await tx.updateTasks(
          tasks.map((t) => ({
            id: t.id,
            patch: end,
            guard: { status: ["ready" as const] },
            runId: run.id,
          })),
        );
        const updates = sent.length;
        // Each row's read left out the others, which it saw still ready: none of it is kept.
        const outstanding = await tx.hasOutstandingTasks(run.id);
        return { done: done.map((t) => t?.status), updates, outstanding };
      }),
    );
    expect(seen).toEqual({ done: ["done", "done", "done"], updates: 1, outstanding: false });
    expect(sent.filter((text) => /\btasks\b/.test(text))).toHaveLength(2);
  });

  it("a run's end held past a claim still ends the run, and the claim takes the next run's task", async () => {
    const s = await store();
    const ending = await addRun(s, { id: "ending", workflow: "w", status: "running" });
    const next = await addRun(s, { id: "next", workflow: "w" });
    const done = await addTask(s, ending.id);
    const waiting = await addTask(s, next.id);
    await s.transact((tx) => tx.claimTasks(["w"], 1, 1));
    const claimed = await s.transact(async (tx) => {
      await tx.updateTask(done.id, { status: "done", terminal: true }, { status: ["in_progress"] });
      expect(await tx.hasOutstandingTasks(ending.id)).toBe(false);
      await tx.updateRun(ending.id, { status: "completed", updated: 9 });
      const [task] = await tx.claimTasks(["w"], 5, 10);
      expect(await tx.getRun(ending.id)).toMatchObject({ status: "completed", updated: 9 });
      return task;
    });
    expect(claimed.id).toBe(waiting.id);
    expect(await s.getRun("ending")).toMatchObject({ status: "completed", updated: 9 });
  });
});
