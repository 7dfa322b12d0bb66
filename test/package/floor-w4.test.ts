// The floor's W4 workflows (bench/floor/): the rows and events they store, counted on the real
// server's store (a nap run: 1 run, 1 task, 6 events; a napfan run of n dozes: 1 run, n + 1
// tasks, 3n + 6 events), the hand-off lateness the engine records, and the lines the drivers
// and `npm run bench` print from their results. Runs the floor engine in-process on a real
// SQLite file; no server, no PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { FloorEngine } from "../../bench/floor/floor-engine.ts";
import { floorWorkloads, wavesOf } from "../../bench/floor/floor-rounds.ts";
import { FloorSqliteStore, type StoredEvent } from "../../bench/floor/floor-store.ts";
import { FLOOR_WORKFLOWS } from "../../bench/floor/floor-workflows.ts";
import { floorPgW4Line } from "../../bench/floor/pg-floor-result.ts";
import { readOptions } from "../../bench/options.ts";

const dir = mkdtempSync(join(tmpdir(), "ym-floor-w4-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function runOn(capacity: number, submits: Array<[string, string]>) {
  const file = join(dir, `floor-${Math.random().toString(36).slice(2)}.db`);
  const store = new FloorSqliteStore(file);
  const published: StoredEvent[] = [];
  const ended = new Map<string, () => void>();
  const engine = new FloorEngine(store, FLOOR_WORKFLOWS, capacity, (events) => {
    published.push(...events);
    for (const e of events) if (e.name === "run.completed") ended.get(e.run_id)?.();
  });
  const ids: string[] = [];
  const done: Array<Promise<void>> = [];
  for (const [workflow, title] of submits) {
    const id = await engine.submit(workflow, title);
    ids.push(id);
    if (!published.some((e) => e.run_id === id && e.name === "run.completed"))
      done.push(new Promise((resolve) => ended.set(id, resolve)));
  }
  await Promise.all(done);
  store.close();
  const db = new Database(file, { readonly: true });
  const count = (table: string, run: string) =>
    (db.prepare(`SELECT count(*) AS n FROM ${table} WHERE run_id = ?`).get(run) as { n: number }).n;
  const rows = ids.map((id) => ({
    runs: (db.prepare("SELECT count(*) AS n FROM runs WHERE id = ?").get(id) as { n: number }).n,
    tasks: count("tasks", id),
    events: count("events", id),
    arrivals: count("arrivals", id),
    statuses: db.prepare("SELECT DISTINCT status FROM tasks WHERE run_id = ?").pluck().all(id),
  }));
  db.close();
  return { engine, rows, published };
}

describe("the floor's W4 workflows", () => {
  it("store per run what Yardmaster stores for nap and napfan", async () => {
    const { rows, published } = await runOn(2, [
      ["nap", "5"],
      ["napfan", "4x5"],
    ]);
    expect(rows[0]).toEqual({ runs: 1, tasks: 1, events: 6, arrivals: 0, statuses: ["done"] });
    expect(rows[1]).toEqual({ runs: 1, tasks: 5, events: 18, arrivals: 0, statuses: ["done"] });
    const end = published.find((e) => e.name === "run.completed" && Array.isArray(e.data.output));
    expect(end?.data).toMatchObject({ output: [5, 5, 5, 5] });
    expect(end?.data.terminal_tasks).toHaveLength(4);
    const doze = published.find((e) => e.name === "task.enqueued" && e.data.node === "doze");
    expect(doze?.data).toMatchObject({ reason: "transition", branch: [{ count: 4, index: 0 }] });
  });

  it("records a hand-off for each attempt that took a slot a body freed", async () => {
    const { engine } = await runOn(3, [["napfan", "9x5"]]);
    // scatter's slot and then six more: 9 dozes on 3 slots, 2 of them free from the start.
    expect(engine.stats.handoffs).toHaveLength(7);
    for (const ms of engine.stats.handoffs) expect(ms).toBeGreaterThanOrEqual(0);
    expect(engine.stats.commits).toBeGreaterThan(0);
  });
});

describe("the floor's W4 figures", () => {
  it("uses the bench's whole-wave ideal and sizes", () => {
    const { W4, "W4-fan": fan } = floorWorkloads(readOptions(["W4"]));
    expect(W4).toMatchObject({ workflow: "nap", runs: 400, steps: 1, capacity: 64, idealMs: 350 });
    expect(fan).toMatchObject({ workflow: "napfan", runs: 1, steps: 401, title: "400x50" });
  });

  it("cuts the hand-offs into waves of the pool's size", () => {
    expect(wavesOf([1, 3, 2, 10, 4], 3)).toEqual([
      { p50: 2, max: 3 },
      { p50: 10, max: 10 },
    ]);
  });

  it("prints the PostgreSQL ratios of both forms, the floor's beside Yardmaster's", () => {
    const row = (system: string, workload: string, ratio: number) => ({
      ...{ rep: 1, system, workload, ratio, stepsPerS: 1, serverMs: 0, pgMs: 0, driverMs: 0 },
      ...{ load: 0, busy: 0, commits: 0, walSyncs: 0, walBytes: 0 },
    });
    const result = {
      ...{ at: "then", runs: 400, floorOverYardmaster: [], floorOverGraphile: [] },
      rows: [
        row("floor", "W4", 1.3),
        row("floor", "W4", 1.4),
        row("floor", "W4-fan", 1.2),
        row("yardmaster", "W4", 5),
        row("yardmaster", "W4-fan", 4),
      ],
    };
    expect(floorPgW4Line(join(dir, "none.json"), result)).toContain(
      "floor 1.3-1.4x / 1.2-1.2x, Yardmaster 5-5x / 4-4x",
    );
    expect(floorPgW4Line(join(dir, "none.json"))).toContain("not measured");
  });
});
