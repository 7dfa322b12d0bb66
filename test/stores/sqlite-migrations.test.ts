// Upgrading a SQLite file written by an earlier schema, and which index each status lookup
// walks after it. A file of version 1 has attempts in every status; after opening it with this
// build it must answer every lookup the way a fresh file does.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import {
  MIGRATIONS,
  migrate,
  openSqliteStore,
  schemaVersion,
} from "../../src/stores/sqlite/index.ts";

const dir = mkdtempSync(join(tmpdir(), "yardmaster-migrate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RUN = `INSERT INTO runs (id, workflow, title, description, status, position, created,
  updated, started) VALUES (?, 'wf', 't', '', 'running', ?, 1, 1, 1)`;
const TASK = `INSERT INTO tasks (run_id, node, attempt, status, priority, explicit, created,
  payload_present, payload, branch, lineage) VALUES (?, ?, 1, ?, 0, 0, 1, 0, 'null', '[]', 'null')`;

/** A version-1 file: run A has one attempt of each status, run B only finished ones. */
function versionOneFile(path: string): void {
  const db = new Database(path);
  migrate(db, MIGRATIONS.slice(0, 1));
  db.prepare(RUN).run("A", 1);
  db.prepare(RUN).run("B", 2);
  for (const status of ["done", "in_progress", "ready", "waiting", "dead_letter"]) {
    db.prepare(TASK).run("A", status, status);
  }
  db.prepare(TASK).run("B", "done", "done");
  db.close();
}

const indexes = (db: Database.Database) =>
  db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'tasks'")
    .pluck()
    .all();

describe("sqlite schema migrations", () => {
  it("upgrades a version-1 file: going attempts keep being found by status and by run", async () => {
    const path = join(dir, "v1.db");
    versionOneFile(path);
    const store = await openSqliteStore(path);
    try {
      const going = await store.listTasks({ status: ["in_progress", "waiting"] });
      expect(going.map((t) => [t.run_id, t.node])).toEqual([
        ["A", "in_progress"],
        ["A", "waiting"],
      ]);
      expect((await store.listTasks({ status: ["waiting"] })).map((t) => t.node)).toEqual([
        "waiting",
      ]);
      // Not a going status: answered by a scan, still complete and in id order.
      const finished = await store.listTasks({ status: ["done", "dead_letter"] });
      expect(finished.map((t) => [t.run_id, t.node])).toEqual([
        ["A", "done"],
        ["A", "dead_letter"],
        ["B", "done"],
      ]);
      expect(await store.hasOutstandingTasks("A")).toBe(true);
      expect(await store.hasOutstandingTasks("B")).toBe(false);
    } finally {
      await store.close();
    }
    const db = new Database(path, { readonly: true });
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    expect(indexes(db)).toContain("tasks_going");
    expect(indexes(db)).not.toContain("tasks_status");
    db.close();
  });

  it("finds a run's going attempts through the partial index as they change status", async () => {
    const path = join(dir, "v1-probe.db");
    versionOneFile(path);
    const store = await openSqliteStore(path);
    try {
      const [ready] = await store.listTasks({ run_id: "A", status: ["ready"] });
      const going = await store.listTasks({ run_id: "A", status: ["in_progress", "waiting"] });
      await store.transact(async (tx) => {
        for (const t of [ready, ...going]) await tx.updateTask(t.id, { status: "done" });
      });
      expect(await store.hasOutstandingTasks("A")).toBe(false);
      expect(await store.listTasks({ status: ["in_progress", "waiting"] })).toEqual([]);
      await store.transact((tx) => tx.updateTask(ready.id, { status: "waiting" }));
      expect(await store.hasOutstandingTasks("A")).toBe(true);
      expect((await store.listTasks({ status: ["waiting"] })).map((t) => t.id)).toEqual([ready.id]);
    } finally {
      await store.close();
    }
  });

  it("upgrades a version-11 file: the ready index loads its open runs without runs_active", async () => {
    const path = join(dir, "v11.db");
    const db = new Database(path);
    migrate(db, MIGRATIONS.slice(0, 11));
    const run = db.prepare(`INSERT INTO runs (id, workflow, title, description, status, position,
      created, updated, started) VALUES (?, 'wf', 't', '', ?, ?, 1, 1, 0)`);
    // Inserted out of list order, one of them paused (not claimable) and one ended.
    run.run("C", "running", 3);
    run.run("A", "queued", 1);
    run.run("P", "paused", 2);
    run.run("D", "completed", 4);
    run.run("B", "queued", 5);
    for (const id of ["C", "A", "P", "D", "B"]) db.prepare(TASK).run(id, "start", "ready");
    db.close();
    const store = await openSqliteStore(path);
    try {
      const claimed = await store.transact((tx) => tx.claimTasks(["wf"], 10, 2));
      expect(claimed.map((t) => t.run_id)).toEqual(["A", "C", "B"]);
      expect(await store.countRuns("queued")).toBe(2);
      expect(await store.countRuns("paused")).toBe(1);
    } finally {
      await store.close();
    }
    const after = new Database(path, { readonly: true });
    const runIndexes = after
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'runs'")
      .pluck()
      .all();
    expect(runIndexes).toContain("runs_open");
    expect(runIndexes).not.toContain("runs_active");
    after.close();
  });
});
