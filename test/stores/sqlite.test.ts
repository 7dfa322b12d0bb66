// The SQLite store: the shared contract on a real file (and on `:memory:`), plus what only
// SQLite has: pragmas, versioned migrations, reopening a file, and connection lifecycle.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { StoreWriter } from "../../src/engine/index.ts";
import { ACTIVE_RUNS, READY_TASKS } from "../../src/stores/sqlite/claims.ts";
import {
  MIGRATIONS,
  migrate,
  openSqliteStore,
  type SqliteStore,
  schemaVersion,
  UNITS_PER_COMMIT,
} from "../../src/stores/sqlite/index.ts";
import { StoreInUseError } from "../../src/stores/sqlite/serving-lock.ts";
import { requestInput, runInput, taskInput } from "./contract/fixtures.ts";
import { storeContract } from "./contract.ts";

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "yardmaster-store-"));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

storeContract("sqlite file", () => openSqliteStore(join(freshDir(), "store.db")));
storeContract("sqlite :memory:", () => openSqliteStore(":memory:"), { isolatedReads: false });

describe("sqlite store", () => {
  const open: SqliteStore[] = [];
  async function openAt(path: string, options?: Parameters<typeof openSqliteStore>[1]) {
    const store = await openSqliteStore(path, options);
    open.push(store);
    return store;
  }
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });

  it("creates parent directories and runs in WAL mode with foreign keys", async () => {
    const path = join(freshDir(), "a", "b", "store.db");
    const store = await openAt(path);
    expect(existsSync(path)).toBe(true);
    expect(store.pragma("journal_mode")).toBe("wal");
    expect(store.pragma("synchronous")).toBe(1);
    expect(store.pragma("foreign_keys")).toBe(1);
    expect(store.pragma("busy_timeout")).toBeGreaterThan(0);
    expect(store.pragma("page_size")).toBe(2048);
    const outside = new Database(path, { readonly: true });
    expect(outside.pragma("journal_mode", { simple: true })).toBe("wal");
    outside.close();
  });

  it("stales a request and reads an arrival stored before the store was opened", async () => {
    const path = join(freshDir(), "store.db");
    const first = await openSqliteStore(path);
    const { run, task } = await first.transact(async (tx) => {
      const run = await tx.insertRun(runInput());
      const task = await tx.insertTask(taskInput(run.id));
      // The writer learns which tasks are asking on its first stale, before this request.
      await tx.staleRequests(task.id);
      return { run, task };
    });
    const request = await first.transact((tx) => tx.insertRequest(requestInput(run.id, task.id)));
    const arrival = {
      run_id: run.id,
      join: "merge",
      fanout: task.id,
      index: 0,
      count: 2,
      task_id: task.id,
      key: null,
      value: 1,
      join_task: null,
    };
    await first.transact((tx) => tx.insertArrival(arrival));
    await first.close();
    const store = await openAt(path);
    await store.transact((tx) => tx.staleRequests(task.id));
    expect((await store.getRequest(request.id))!.stale).toBe(true);
    // What the writer knows of the arrivals is read from the file too.
    expect(await store.transact((tx) => tx.listArrivals(run.id))).toStrictEqual([arrival]);
  });

  it("writes a task inserted and claimed in one unit once, as a read answers it", async () => {
    const path = join(freshDir(), "store.db");
    const store = await openAt(path);
    const run = await store.transact((tx) => tx.insertRun(runInput({ status: "running" })));
    const wf = [run.workflow];
    // The first claim loads the ready index; the later ones find it loaded.
    await store.transact(async (tx) => tx.claimTasks(wf, 1, 5));
    const readyCount = (db: Database.Database) =>
      db.prepare("SELECT COUNT(*) FROM tasks WHERE status = 'ready'").pluck().get();
    const { inserted, claimed, seen } = await store.transact(async (tx) => {
      const inserted = await tx.insertTask(taskInput(run.id, { node: "b" }));
      const [claimed] = await tx.claimTasks(wf, 1, 7);
      return { inserted, claimed, seen: await tx.getTask(inserted.id) };
    });
    expect(claimed).toStrictEqual({ ...inserted, status: "in_progress", started: 7, claim: 1 });
    expect(seen).toStrictEqual(claimed);
    expect(await store.getTask(inserted.id)).toStrictEqual(claimed);
    // Held, then written before another statement: a higher-priority task claimed instead.
    const [later, first] = await store.transact(async (tx) => {
      const later = await tx.insertTask(taskInput(run.id, { node: "c" }));
      const first = await tx.insertTask(taskInput(run.id, { node: "d", priority: 5 }));
      return [later, first];
    });
    expect(first.id).toBe(later.id + 1);
    const both = await store.transact(async (tx) => {
      const d = await tx.insertTask(taskInput(run.id, { node: "e", priority: -1 }));
      return { d, got: await tx.claimTasks(wf, 2, 9) };
    });
    expect(both.got.map((t) => t.id)).toEqual([first.id, later.id]);
    expect((await store.getTask(both.d.id))!.status).toBe("ready");
    const outside = new Database(path, { readonly: true });
    expect(readyCount(outside)).toBe(1);
    outside.close();
    // A claim that reloads the index (a move dropped it) writes the held task first.
    const reloaded = await store.transact(async (tx) => {
      await tx.moveRun(run.id, 0);
      const f = await tx.insertTask(taskInput(run.id, { node: "f", priority: 9 }));
      return { f, got: await tx.claimTasks(wf, 1, 11) };
    });
    expect(reloaded.got.map((t) => t.id)).toEqual([reloaded.f.id]);
    expect((await store.getTask(reloaded.f.id))!.status).toBe("in_progress");
  });

  it("gives a held task's id back with its unit, and counts on after a batch insert", async () => {
    const store = await openAt(join(freshDir(), "store.db"));
    const run = await store.transact((tx) => tx.insertRun(runInput()));
    const kept = await store.transact((tx) => tx.insertTask(taskInput(run.id)));
    await expect(
      store.transact(async (tx) => {
        await tx.insertTask(taskInput(run.id));
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    const again = await store.transact((tx) => tx.insertTask(taskInput(run.id)));
    expect(again.id).toBe(kept.id + 1);
    const batch = await store.transact((tx) =>
      tx.insertTasks([taskInput(run.id), taskInput(run.id)]),
    );
    expect(batch.map((t) => t.id)).toEqual([again.id + 1, again.id + 2]);
    const next = await store.transact((tx) => tx.insertTask(taskInput(run.id)));
    expect(next.id).toBe(again.id + 3);
    expect((await store.listTasks({ run_id: run.id })).map((t) => t.id)).toEqual([
      kept.id,
      again.id,
      ...batch.map((t) => t.id),
      next.id,
    ]);
  });

  it("keeps the page size of a file made with another one", async () => {
    const path = join(freshDir(), "store.db");
    const made = new Database(path);
    made.pragma("page_size = 4096");
    made.exec("CREATE TABLE earlier (x INTEGER)");
    made.close();
    const store = await openAt(path);
    expect(store.pragma("page_size")).toBe(4096);
    expect(store.pragma("journal_mode")).toBe("wal");
  });

  it("checkpoints the WAL on a worker thread, not in the writer's commits", async () => {
    const path = join(freshDir(), "store.db");
    const store = await openAt(path);
    expect(store.pragma("wal_autocheckpoint")).toBe(0);
    await store.transact(async (tx) => {
      for (let i = 0; i < 200; i++) {
        const run = await tx.insertRun(runInput());
        await tx.insertTask(taskInput(run.id, { payload: { pad: "x".repeat(500) } }));
      }
    });
    // The worker reports after each checkpoint; wait (bounded) for one that copied frames.
    const deadline = Date.now() + 5000;
    while (!(store.checkpoints?.checkpointed ?? 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(store.checkpoints?.checkpointed).toBeGreaterThan(0);
    expect(store.checkpoints?.checkpointed).toBe(store.checkpoints?.log);
    await store.close();
    // The writer was the last connection: a clean close leaves no WAL behind.
    expect(existsSync(`${path}-wal`)).toBe(false);
    const reopened = new Database(path, { readonly: true });
    expect(reopened.prepare("SELECT COUNT(*) FROM tasks").pluck().get()).toBe(200);
    reopened.close();
  });

  it("a store left open does not keep its process alive", async () => {
    const script = fileURLToPath(new URL("../support/store-left-open.ts", import.meta.url));
    const child = spawn(process.execPath, ["--import", "tsx", script, join(freshDir(), "s.db")], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
    clearTimeout(killer);
    expect(out).toBe("wrote\n");
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  });

  it("an exclusive store refuses a second exclusive open of its file until it is closed", async () => {
    const path = join(freshDir(), "store.db");
    const first = await openSqliteStore(path, { exclusive: true });
    const refused = await openSqliteStore(path, { exclusive: true }).catch((e: Error) => e);
    expect(refused).toBeInstanceOf(StoreInUseError);
    expect((refused as Error).message).toContain(`${path} is in use by another Yardmaster server`);
    // A store opened without the option (a test sharing the file on purpose) is not refused.
    await (await openSqliteStore(path)).close();
    await first.close();
    const again = await openAt(path, { exclusive: true });
    expect(await again.listRuns()).toEqual([]);
  });

  it("honours synchronous FULL", async () => {
    const store = await openAt(join(freshDir(), "store.db"), { synchronous: "FULL" });
    expect(store.pragma("synchronous")).toBe(2);
  });

  it("keeps data, ids and positions when the file is reopened", async () => {
    const path = join(freshDir(), "store.db");
    const first = await openSqliteStore(path);
    const written = await first.transact(async (tx) => {
      const run = await tx.insertRun(runInput({ workflow: "w" }));
      const task = await tx.insertTask(taskInput(run.id, { payload: { deep: [1, { x: null }] } }));
      const events = await tx.appendEvents(
        [{ name: "run.created", run_id: run.id, task_id: null, data: { a: 1 } }],
        9,
      );
      return { run, task, events };
    });
    await first.close();
    const again = await openAt(path);
    expect(await again.getRun(written.run.id)).toStrictEqual(written.run);
    expect(await again.getTask(written.task.id)).toStrictEqual(written.task);
    expect(await again.listEvents({})).toStrictEqual(written.events);
    const next = await again.transact(async (tx) => {
      await tx.deleteRun(written.run.id);
      const run = await tx.insertRun(runInput());
      return { run, task: await tx.insertTask(taskInput(run.id)) };
    });
    expect(next.task.id).toBeGreaterThan(written.task.id);
    expect(next.run.position).toBe(1);
  });

  it("records the schema version and applies no step twice", async () => {
    const path = join(freshDir(), "store.db");
    await (await openSqliteStore(path)).close();
    const db = new Database(path);
    try {
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
      expect(migrate(db)).toEqual([]);
      expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    } finally {
      db.close();
    }
    await openAt(path);
  });

  it("applies migration steps in order, once, each in its own transaction", () => {
    const db = new Database(":memory:");
    const steps = [
      { version: 1, name: "one", sql: "CREATE TABLE one (x INTEGER)" },
      { version: 2, name: "two", sql: "CREATE TABLE two (x INTEGER)" },
    ];
    expect(migrate(db, steps.slice(0, 1))).toEqual([1]);
    expect(migrate(db, steps)).toEqual([2]);
    expect(migrate(db, steps)).toEqual([]);
    const broken = [...steps, { version: 3, name: "bad", sql: "CREATE TABLE three (x); SELEC" }];
    expect(() => migrate(db, broken)).toThrow();
    expect(schemaVersion(db)).toBe(2);
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all();
    expect(tables).toEqual(["one", "two"]);
    expect(() => migrate(db, steps.slice(0, 1))).toThrow(/newer/);
    expect(() => migrate(db, [{ version: 2, name: "gap", sql: "" }])).toThrow();
    db.close();
  });

  it("retires the writer when its transaction ends", async () => {
    const store = await openAt(":memory:");
    let leaked: StoreWriter | undefined;
    await store.transact(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.insertRun(runInput())).rejects.toThrow(/finished/);
    expect(await store.listRuns()).toEqual([]);
  });

  it("refuses patches of unknown or fixed fields", async () => {
    const store = await openAt(":memory:");
    const run = await store.transact((tx) => tx.insertRun(runInput()));
    const task = await store.transact((tx) => tx.insertTask(taskInput(run.id)));
    const bad = { run_id: "other" } as object;
    await expect(store.transact((tx) => tx.updateTask(task.id, bad))).rejects.toThrow(/run_id/);
    const sneaky = { position: 5 } as object;
    await expect(store.transact((tx) => tx.updateRun(run.id, sneaky))).rejects.toThrow(/position/);
    expect((await store.getTask(task.id))?.run_id).toBe(run.id);
  });

  it("commits quick callbacks asked for together in one transaction", async () => {
    const store = await openAt(join(freshDir(), "store.db"));
    const before = store.commits.count;
    const runs = await Promise.all(
      [1, 2, 3].map(() => store.transact((tx) => tx.insertRun(runInput()))),
    );
    expect(runs.map((r) => r.position)).toEqual([1, 2, 3]);
    expect(store.commits.count - before).toBe(1);
  });

  it("commits the head of a long batch before its tail runs", async () => {
    // A wave of finished attempts arrives as one batch: the first ones' hand-offs must not
    // wait for the last one's COMMIT. The tail's callback reads on the read connection, which
    // sees committed state only.
    const store = await openAt(join(freshDir(), "store.db"));
    const before = store.commits.count;
    const head = Array.from({ length: UNITS_PER_COMMIT }, (_, i) =>
      store.transact((tx) => tx.insertRun(runInput({ id: `head-${i}` }))),
    );
    const seen = store.transact(async () => (await store.listRuns()).length);
    expect((await Promise.all(head)).map((r) => r.position)).toEqual(
      Array.from({ length: UNITS_PER_COMMIT }, (_, i) => i + 1),
    );
    expect(await seen).toBe(UNITS_PER_COMMIT);
    expect(store.commits.count - before).toBe(2);
  });

  it("fails the rest of a batch with a transaction that cannot commit", async () => {
    const store = await openAt(join(freshDir(), "store.db"));
    const head = Array.from({ length: UNITS_PER_COMMIT }, (_, i) =>
      store.transact((tx) => tx.insertRun(runInput({ id: `head-${i}` }))),
    );
    // A deferred foreign key violation fails the COMMIT of the tail's transaction.
    const tail = [1, 2].map(() =>
      store.transact(async (tx) => {
        store.pragma("defer_foreign_keys = ON");
        return tx.insertTask(taskInput("no-such-run"));
      }),
    );
    expect(await Promise.all(head)).toHaveLength(UNITS_PER_COMMIT);
    for (const t of tail) await expect(t).rejects.toThrow(/FOREIGN KEY/);
    expect(await store.listRuns()).toHaveLength(UNITS_PER_COMMIT);
    const after = await store.transact((tx) => tx.insertRun(runInput({ id: "after" })));
    expect(after.position).toBe(UNITS_PER_COMMIT + 1);
  });

  it("finishes queued transactions on close and refuses new ones", async () => {
    const store = await openSqliteStore(join(freshDir(), "store.db"));
    const pending = store.transact((tx) => tx.insertRun(runInput()));
    await store.close();
    expect((await pending).position).toBe(1);
    await expect(store.transact((tx) => tx.listRuns())).rejects.toThrow(/closed/);
    await store.close();
  });

  it("loads the ready index from the partial indexes, never the whole history", async () => {
    const path = join(freshDir(), "store.db");
    await openAt(path);
    const db = new Database(path, { readonly: true });
    const planOf = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as Array<{ detail: string }>).map(
        (row) => row.detail,
      );
    expect(planOf(ACTIVE_RUNS)).toEqual(["SEARCH runs USING INDEX runs_open (status=?)"]);
    expect(planOf(READY_TASKS)).toEqual(["SCAN tasks USING INDEX tasks_ready"]);
    db.close();
  });
});
