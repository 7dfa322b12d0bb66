// The PostgreSQL store's pipelined writes (transaction.ts, `Db.write`): a write whose answer
// nobody reads is sent without waiting or held for a later statement (deferred.ts), the unit's
// later statements see it, and its failure is the unit's failure (rolled back alone when it
// shares a batch), never a silent loss. And the batch's run cache (run-cache.ts): what a unit
// reads of a run is what PostgreSQL has, in the unit, after a unit rolled back, and after
// another server's commit.
import { afterAll, describe, expect, it } from "vitest";
import type { StoreWriter } from "../../src/engine/index.ts";
import { openPostgresStore, type PostgresStore } from "../../src/stores/postgres/index.ts";
import { dropSchemas, freshSchema, postgres, withSchema } from "../support/postgres.ts";
import { addRun, addTask, requestInput, runInput } from "./contract/fixtures.ts";

const schemas: string[] = [];
const open: PostgresStore[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await dropSchemas(schemas);
});

async function store(): Promise<PostgresStore> {
  const schema = freshSchema("pipe");
  schemas.push(schema);
  const s = await openPostgresStore(withSchema(postgres.url!, schema));
  open.push(s);
  return s;
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

  it("a failed write fails its unit only, with its own error, in a shared batch", async () => {
    const s = await store();
    const run = await addRun(s);
    const bad = s.transact(async (tx) => {
      await tx.insertRun(runInput({ id: "pipe-gone" }));
      // not a bigint: PostgreSQL refuses it, after the callback has moved on
      await tx.touchRuns([run.id], "soon" as unknown as number);
      return "went on";
    });
    const good = s.transact((tx) => tx.insertRun(runInput({ id: "pipe-kept" })));
    await expect(bad).rejects.toThrow(/bigint/);
    await expect(good).resolves.toMatchObject({ id: "pipe-kept" });
    expect(await s.getRun("pipe-gone")).toBeNull();
    expect(await s.getRun("pipe-kept")).not.toBeNull();
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
});
