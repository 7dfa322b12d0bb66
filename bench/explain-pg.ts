// EXPLAIN ANALYZE of the PostgreSQL store's hot statements at 10,000 runs (issue 22):
//   node --import tsx bench/explain-pg.ts
// Seeds a throwaway cluster with 10,000 runs: a third done (3 completed attempts each), a third
// running (2 completed attempts and 1 ready), a third queued (1 ready attempt), then prints the
// plan and timing of the claim and of the reads a step makes on the writer.
import pg from "pg";
import { CLAIM_SHARED, CLAIM as CLAIM_STATEMENT } from "../src/stores/postgres/claims.ts";
import { openPostgresStore } from "../src/stores/postgres/index.ts";
import { findPostgresBin, startPostgresCluster } from "../test/support/postgres-cluster.ts";

const cluster = await startPostgresCluster((await findPostgresBin())!);
const store: any = await openPostgresStore(cluster.url);
const RUNS = Number(process.env.EXPLAIN_RUNS ?? 10_000);
const task = (run_id: string, node: string) => ({
  run_id,
  node,
  attempt: 1,
  priority: 0,
  explicit: false,
  created: Date.now(),
  payload_present: false,
  payload: null,
  branch: null,
  lineage: [],
});
for (let i = 0; i < RUNS; i += 500) {
  await store.transact(async (tx: any) => {
    for (let k = i; k < i + 500; k++) {
      const kind = k % 3;
      const status = ["completed", "running", "queued"][kind];
      const id = `r-${k}`;
      await tx.insertRun({
        id,
        workflow: "chain3",
        title: `run ${k}`,
        description: "",
        status,
        created: k,
        updated: k,
        started: kind !== 2,
      });
      const done = [3, 2, 0][kind];
      for (let n = 0; n < done; n++) {
        const t = await tx.insertTask(task(id, `n${n}`));
        await tx.updateTask(t.id, { status: "done", finished: k });
      }
      if (kind !== 0) await tx.insertTask(task(id, "next"));
    }
  });
}
const client = new pg.Client({ connectionString: cluster.url });
await client.connect();
if (process.env.EXPLAIN_NO_ANALYZE !== "1") await client.query("ANALYZE");
async function explain(label: string, text: string, values: unknown[]) {
  await client.query("BEGIN");
  const { rows } = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
  await client.query("ROLLBACK");
  console.log(`\n== ${label}`);
  for (const r of rows) console.log(r["QUERY PLAN"]);
}
const CLAIM = CLAIM_STATEMENT.text;
const extra = process.argv[2];
await explain("claim 8", extra ?? CLAIM, [["chain3"], 8, Date.now()]);
await explain("claim 1", extra ?? CLAIM, [["chain3"], 1, Date.now()]);
// A named statement is planned generically after five executions (plan_cache_mode auto):
// what the store's claim runs with from then on.
await client.query("SET plan_cache_mode = force_generic_plan");
await explain("claim 8, generic plan", extra ?? CLAIM, [["chain3"], 8, Date.now()]);
await client.query("RESET plan_cache_mode");
// The claim of a server sharing the schema: its row with a live lease, the pool's capacity 8.
await client.query(
  "INSERT INTO servers (id, host, pid, lease_until) VALUES ('srv_x', 'h', 1, now() + interval '1 hour')",
);
await explain("shared claim 1", CLAIM_SHARED.text, [["chain3"], 1, Date.now(), "srv_x", 8]);
await explain("getRun", "SELECT * FROM runs WHERE id = $1", ["r-5000"]);
await client.end();
await store.close();
await cluster.stop();
