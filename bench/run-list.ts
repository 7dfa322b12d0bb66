import { rmSync } from "node:fs";
import { openPostgresStore } from "../src/stores/postgres/index.ts";
import { openSqliteStore } from "../src/stores/sqlite/index.ts";
import { findPostgresBin, startPostgresCluster } from "../test/support/postgres-cluster.ts";

const pg = process.argv[2] === "pg";
const cluster = pg ? await startPostgresCluster((await findPostgresBin())!) : null;
// Times the run list reads of docs/http.md ("The run list") on 10,000 runs: `node --import tsx
// bench/run-list.ts` (SQLite) or `... bench/run-list.ts pg` (a throwaway PostgreSQL cluster).
const file = "tmp/measure-runpages.db";
rmSync(file, { force: true });
const store: any = pg ? await openPostgresStore(cluster!.url) : await openSqliteStore(file);
const statuses = ["completed", "completed", "failed", "queued"] as const;
for (let i = 0; i < 10_000; i += 500) {
  await store.transact(async (tx: any) => {
    for (let k = i; k < i + 500; k++) {
      await tx.insertRun({
        id: `r-${k}`,
        workflow: k % 2 ? "triage" : "deploy",
        title: `${k % 7 === 0 ? "Nightly Fizz" : "ticket"} #${k} some longer words here`,
        description: "",
        status: statuses[k % 4]!,
        created: k,
        updated: k,
        started: false,
      });
    }
  });
}
async function time(label: string, f: () => Promise<unknown>) {
  const t: number[] = [];
  for (let i = 0; i < 30; i++) {
    const s = performance.now();
    await f();
    t.push(performance.now() - s);
  }
  t.sort((a, b) => a - b);
  console.log(label.padEnd(40), "median", t[15]!.toFixed(2), "ms  p90", t[27]!.toFixed(2), "ms");
}
await time("whole list (10,000)", () => store.listRuns({}));
await time("limit 50, first page", () => store.listRuns({ limit: 51 }));
await time("limit 50, after position 9000", () => store.listRuns({ after: 9000, limit: 51 }));
await time("q=fizz (1,429 hits), whole", () => store.listRuns({ title: "fizz" }));
await time("q=fizz, limit 50", () => store.listRuns({ title: "fizz", limit: 51 }));
await time("q=nomatch (scan, 0 hits)", () => store.listRuns({ title: "nomatch" }));
await time("counts by status x workflow", () => store.countRunsByStatus());
await store.close();
rmSync(file, { force: true });
rmSync(`${file}-wal`, { force: true });
rmSync(`${file}-shm`, { force: true });
await cluster?.stop();
