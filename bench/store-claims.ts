// Claim/complete throughput of the SQLite store on a real file:
//   node --import tsx bench/store-claims.ts [runs] [NORMAL|FULL]
// Inserts N runs (default 2,000) with one ready task each, then drains them as the dispatcher
// does: claim 8 in one transaction, complete each claimed task in its own transaction (guarded
// updateTask + appendEvents), until nothing is left. Two scenarios:
// - "bare": exactly that; the drained runs stay queued with nothing ready, so each claim walks
//   past every run drained before it (the worst case for the claim's plan).
// - "engine": also what the engine writes around it: the claim marks the run running, the
//   completion marks it completed (a single-node workflow ends with its task).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store, StoreWriter, TaskRecord } from "../src/engine/index.ts";
import { openSqliteStore } from "../src/stores/sqlite/index.ts";

const RUNS = Number(process.argv[2] ?? 2000);
const SYNCHRONOUS = process.argv[3] === "FULL" ? "FULL" : "NORMAL";
const BATCH = 8;

type Scenario = "bare" | "engine";

async function seed(store: Store): Promise<void> {
  await store.transact(async (tx) => {
    for (let i = 0; i < RUNS; i++) {
      const id = `run-${i}`;
      await tx.insertRun({
        id,
        workflow: "bench",
        title: id,
        description: "",
        input: null,
        status: "queued",
        created: i,
        updated: i,
        started: false,
      });
      await tx.insertTask({
        run_id: id,
        node: "start",
        attempt: 1,
        priority: 0,
        explicit: false,
        created: i,
        payload_present: true,
        payload: { i },
        branch: [],
        lineage: { reason: "start", parent: null },
      });
    }
  });
}

async function claim(store: Store, scenario: Scenario): Promise<TaskRecord[]> {
  return store.transact(async (tx) => {
    const now = Date.now();
    const tasks = await tx.claimTasks(["bench"], BATCH, now);
    if (scenario === "engine") {
      for (const task of tasks) await markRun(tx, task, "running", now);
    }
    return tasks;
  });
}

async function markRun(
  tx: StoreWriter,
  task: TaskRecord,
  status: "running" | "completed",
  now: number,
) {
  await tx.updateRun(task.run_id, { status, started: true, updated: now });
}

async function complete(store: Store, task: TaskRecord, scenario: Scenario): Promise<void> {
  await store.transact(async (tx) => {
    const now = Date.now();
    const done = await tx.updateTask(
      task.id,
      {
        status: "done",
        finished: now,
        result: { ok: task.id },
        result_present: true,
        terminal: true,
      },
      { status: ["in_progress"], claim: task.claim },
    );
    if (done === null) throw new Error(`lost claim on task ${task.id}`);
    if (scenario === "engine") await markRun(tx, task, "completed", now);
    await tx.appendEvents(
      [{ name: "task.done", run_id: task.run_id, task_id: task.id, data: { node: task.node } }],
      now,
    );
  });
}

async function measure(scenario: Scenario): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "yardmaster-bench-"));
  try {
    const store = await openSqliteStore(join(dir, "store.db"), { synchronous: SYNCHRONOUS });
    let start = performance.now();
    await seed(store);
    const seedMs = performance.now() - start;
    let claims = 0;
    let completions = 0;
    start = performance.now();
    for (;;) {
      const batch = await claim(store, scenario);
      if (batch.length === 0) break;
      claims += 1;
      // Completions arrive together, as from 8 busy slots; transact serializes them.
      await Promise.all(batch.map((task) => complete(store, task, scenario)));
      completions += batch.length;
    }
    const ms = performance.now() - start;
    await store.close();
    const rate = (n: number) => ((n * 1000) / ms).toFixed(0);
    console.log(
      `${scenario}: ${RUNS} runs seeded in ${seedMs.toFixed(0)} ms; drained in ${ms.toFixed(0)} ms`,
    );
    console.log(
      `  ${rate(completions)} completions/s, ${rate(claims)} claims/s (batches of ${BATCH}), ${rate(claims + completions)} transactions/s`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`store-claims: SQLite file, synchronous=${SYNCHRONOUS}`);
await measure("bare");
await measure("engine");
