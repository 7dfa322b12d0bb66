// What the SQLite store costs per run, in one process, against another worktree's store:
//   node --import tsx bench/store-rows.ts <other worktree> [runs per round] [rounds]
// Opens this worktree's store and the other's, each on a fresh file, and alternates rounds of
// the same work on each: single submits (a transaction per run: the run row, its start task,
// two events), a batch (insertRuns, insertTasks, the events, in transactions of 1,000), and each
// task's claim and completion (claimTasks, then the guarded `updateTask` a completion makes, on
// the row the store already holds). Prints the process's CPU µs per run for each phase, per
// round and the median of the rounds after the first: an A/B of the stores' JavaScript that
// HTTP, the engine and the machine's other load (shared alike) do not blur.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { NewTask, RunRecord, Store } from "../src/engine/index.ts";

const OTHER = process.argv[2];
const RUNS = Number(process.argv[3] ?? 2000);
const ROUNDS = Number(process.argv[4] ?? 7);
const BATCH = Math.min(1000, RUNS);

type Open = (path: string) => Promise<Store & { close(): Promise<void> }>;

async function opener(root: string): Promise<Open> {
  const module = await import(join(resolve(root), "src/stores/sqlite/index.ts"));
  return module.openSqliteStore as Open;
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

let serial = 0;
const runOf = (now: number): Omit<RunRecord, "position"> => ({
  id: `r${String(++serial).padStart(12, "0")}`,
  workflow: "chain3",
  title: "a run",
  description: "",
  status: "queued",
  created: now,
  updated: now,
  started: false,
  input: null,
});
const taskOf = (runId: string, now: number): NewTask => ({
  run_id: runId,
  node: "a",
  attempt: 1,
  priority: 0,
  explicit: false,
  created: now,
  payload_present: true,
  payload: { title: "a run", description: "" },
  branch: [],
  lineage: { reason: "start", parent: null },
});
const eventsOf = (runId: string, taskId: number | null) => [
  { name: "run.created", run_id: runId, task_id: null, data: { position: 1, title: "a run" } },
  { name: "task.enqueued", run_id: runId, task_id: taskId, data: { attempt: 1, node: "a" } },
];

interface Phases {
  single: number;
  batch: number;
  complete: number;
}

async function round(store: Store): Promise<Phases> {
  const now = Date.now();
  let t = cpuUs();
  const singles: Promise<unknown>[] = [];
  for (let i = 0; i < RUNS; i++) {
    singles.push(
      store.transact(async (tx) => {
        const run = await tx.insertRun(runOf(now));
        const task = await tx.insertTask(taskOf(run.id, now));
        await tx.appendEvents(eventsOf(run.id, task.id), now);
      }),
    );
  }
  await Promise.all(singles);
  const single = (cpuUs() - t) / RUNS;
  t = cpuUs();
  for (let i = 0; i < RUNS; i += BATCH) {
    await store.transact(async (tx) => {
      const runs = await tx.insertRuns(Array.from({ length: BATCH }, () => runOf(now)));
      const tasks = await tx.insertTasks(runs.map((run) => taskOf(run.id, now)));
      await tx.appendEvents(
        runs.flatMap((run, j) => eventsOf(run.id, tasks[j]!.id)),
        now,
      );
    });
  }
  const batch = (cpuUs() - t) / RUNS;
  t = cpuUs();
  let done = 0;
  while (done < 2 * RUNS) {
    const claimed = await store.transact((tx) => tx.claimTasks(["chain3"], 64, now));
    if (claimed.length === 0) break;
    await Promise.all(
      claimed.map((task) =>
        store.transact((tx) =>
          tx.updateTask(
            task.id,
            {
              status: "done",
              finished: now,
              result: { next: "b" },
              result_present: true,
              terminal: false,
              token_hash: null,
            },
            { status: ["in_progress", "waiting"], claim: task.claim },
          ),
        ),
      ),
    );
    done += claimed.length;
  }
  const complete = (cpuUs() - t) / done;
  return { single, batch, complete };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  if (!OTHER) throw new Error("usage: store-rows.ts <other worktree> [runs] [rounds]");
  const dir = mkdtempSync(join(tmpdir(), "ym-store-rows-"));
  const sides = [
    { name: "this", store: await (await opener("."))(join(dir, "this.db")) },
    { name: "other", store: await (await opener(OTHER))(join(dir, "other.db")) },
  ];
  const results = new Map<string, Phases[]>(sides.map((s) => [s.name, []]));
  for (let r = 1; r <= ROUNDS; r++) {
    for (const side of r % 2 ? sides : [...sides].reverse()) {
      const p = await round(side.store);
      results.get(side.name)!.push(p);
      console.log(
        `${side.name.padEnd(5)} round ${r}: single ${p.single.toFixed(1)}, batch ${p.batch.toFixed(1)}, complete ${p.complete.toFixed(1)} µs CPU per run`,
      );
    }
  }
  for (const [name, rounds] of results) {
    const warm = rounds.slice(1);
    console.log(
      `${name.padEnd(5)} median of rounds 2-${ROUNDS}: single ${median(warm.map((p) => p.single)).toFixed(1)}, batch ${median(warm.map((p) => p.batch)).toFixed(1)}, complete ${median(warm.map((p) => p.complete)).toFixed(1)} µs`,
    );
  }
  for (const side of sides) await side.store.close();
  rmSync(dir, { recursive: true, force: true });
}

await main();
