// Submit and dispatch latency while a 10,000-run bulk delete runs (docs/http.md, "Operations in
// bulk"): `node --import tsx bench/bulk-delete.ts` (SQLite) or `... bench/bulk-delete.ts pg` (a
// throwaway PostgreSQL cluster). 10,000 completed runs with one task and two events each are
// written straight to the store; then a submitter queues a run every 2 ms of a one-node
// workflow and times the submit (call to answer) and the dispatch (call to `task.started`),
// first alone, then while `bulkRuns("delete")` pages through the 10,000 runs 1,000 at a time.
import { rmSync } from "node:fs";
import { workflow } from "../src/authoring/index.ts";
import { Engine } from "../src/engine/index.ts";
import { openPostgresStore } from "../src/stores/postgres/index.ts";
import { openSqliteStore } from "../src/stores/sqlite/index.ts";
import { findPostgresBin, startPostgresCluster } from "../test/support/postgres-cluster.ts";

const pg = process.argv[2] === "pg";
const cluster = pg ? await startPostgresCluster((await findPostgresBin())!) : null;
const file = "tmp/measure-bulk.db";
rmSync(file, { force: true });
const store: any = pg ? await openPostgresStore(cluster!.url) : await openSqliteStore(file);
const N = 10_000;
for (let i = 0; i < N; i += 500) {
  await store.transact(async (tx: any) => {
    for (let k = i; k < i + 500; k++) {
      const run = await tx.insertRun({
        id: `r-${String(k).padStart(6, "0")}`,
        workflow: "quick",
        title: `old #${k}`,
        description: "",
        status: "completed",
        created: k,
        updated: k,
        started: true,
        input: null,
      });
      const task = await tx.insertTask({
        run_id: run.id,
        node: "only",
        attempt: 1,
        status: "done",
        priority: 0,
        explicit: false,
        payload_present: true,
        payload: { title: run.title },
        branch: [],
        lineage: { reason: "start", parent: null },
        created: k,
      });
      await tx.appendEvents(
        [
          { name: "run.created", run_id: run.id, task_id: null, data: {} },
          { name: "task.enqueued", run_id: run.id, task_id: task.id, data: {} },
        ],
        k,
      );
    }
  });
}
const engine = new Engine({ store, pools: { default: { capacity: 4 } }, onError: console.error });
const wf = workflow("quick");
wf.node({ start: true }, async function only({}: any, input: unknown) {
  return input;
});
engine.register({
  name: "quick",
  graph: wf.finalize(),
  workflow: wf,
  pool: "default",
  target: null,
  file: null,
  loaded: null,
});
await engine.start();
const startedAt = new Map<string, number>();
const dispatch: number[] = [];
engine.bus.subscribe((e) => {
  if (e.name !== "task.started" || e.run_id === null) return;
  const t = startedAt.get(e.run_id);
  if (t !== undefined) dispatch.push(performance.now() - t);
});

async function submitter(until: () => boolean): Promise<number[]> {
  const submit: number[] = [];
  dispatch.length = 0;
  while (!until()) {
    const t = performance.now();
    const id = await engine.commands.submitRun("quick", { title: "new" });
    startedAt.set(id, t);
    submit.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 2));
  }
  await new Promise((r) => setTimeout(r, 200));
  return submit;
}

function figures(label: string, xs: number[]) {
  if (!xs.length) return void console.log(`${label.padEnd(28)} n=   0`);
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))]!.toFixed(1);
  console.log(
    `${label.padEnd(28)} n=${String(s.length).padStart(4)}  p50 ${q(0.5)} ms  p99 ${q(0.99)} ms  max ${s.at(-1)!.toFixed(1)} ms`,
  );
}

const t0 = performance.now();
const alone = await submitter(() => performance.now() - t0 > 2000);
figures("submit, alone", alone);
figures("dispatch, alone", [...dispatch]);

let deleting = true;
let deleted = 0;
const tDel = performance.now();
const bulk = (async () => {
  for (;;) {
    const r = await engine.commands.bulkRuns("delete", {
      filter: { workflow: "quick", createdBefore: N },
      limit: 1000,
    });
    deleted += r.done.length;
    if (!r.more) break;
  }
  deleting = false;
})();
const during = await submitter(() => !deleting);
await bulk;
const delMs = performance.now() - tDel;
figures("submit, during the delete", during);
figures("dispatch, during the delete", [...dispatch]);
console.log(
  `bulk delete: ${deleted} runs in ${delMs.toFixed(0)} ms (${((deleted / delMs) * 1000).toFixed(0)} runs/s)`,
);
await engine.stop();
await store.close();
rmSync(file, { force: true });
rmSync(`${file}-wal`, { force: true });
rmSync(`${file}-shm`, { force: true });
await cluster?.stop();
