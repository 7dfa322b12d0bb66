// The dispatcher's claim: ONE statement, safe for several servers sharing a database. The CTE
// picks the next ready attempts in dispatch order (run position, then priority descending, then
// created, then id) among runs that are queued or running, and locks them with FOR UPDATE OF t
// SKIP LOCKED: rows another transaction is claiming right now are passed over instead of waited
// for, so two servers never block on, nor take, the same attempt (every transaction on the
// schema holds its write lock, transaction.ts, so a claim meets no such row today; one would
// make it take fewer than it could, as the pick looks only at the first `limit` runs with a
// ready attempt). A row whose `not_before` is still ahead (a retry's backoff) is passed over:
// one more test on a row the index already found. A MATERIALIZED CTE runs once
// (a subquery could be rescanned by a nested loop and lock more rows than it answers). The
// UPDATE finds its rows by `id = ANY(ARRAY(...))`, an index lookup whatever the planner
// guesses the pick's size to be: joined to the CTE instead, an estimate of a hundred rows (a
// LIMIT it cannot evaluate ahead, as the shared claim's) made it hash-join a scan of every
// ready row, a cost that grew with the table. The UPDATE repeats `status = 'ready'` as a last
// guard. RETURNING has no order, so the rows are sorted here by the same keys, the run's
// position joined back beside each row. Each row carries its run's row too (`run_row`, as
// JSON): the engine reads the run of every attempt it claims next, and the writer's run cache
// (run-cache.ts) answers that read from it. It is a subquery per row, a lookup by key whatever
// the plan: joined instead, a plan made while `runs` was young scanned the whole table.
import type { ClaimScope, RunRecord, TaskRecord } from "../../engine/index.ts";
import { toRun, toTask } from "./rows.ts";
import { type Db, rows, sql } from "./sql.ts";

// The runs that can dispatch, in list order, that have a ready attempt due: the first `limit`
// of them hold the first `limit` attempts in dispatch order (each has at least one), so the
// pick sorts only their ready rows. Joined whole instead, the sort by position then priority
// read at least 32 runs' rows a claim (an incremental sort's smallest group) however few it
// took, most of the claim's cost in W1 (bench/explain-pg.ts). The inner LIMIT is a subquery so
// that a custom plan does not know it either: knowing `LIMIT 1`, custom plans were estimated so
// much cheaper than the generic one that PostgreSQL planned every claim anew (three times the
// claim's own cost), instead of keeping the generic plan after five executions.
const FIRST_RUNS = `(
    SELECT r.id, r.position FROM runs r
    WHERE r.status IN ('queued', 'running') AND r.workflow = ANY($1::text[])
      AND EXISTS (
        SELECT 1 FROM tasks e WHERE e.run_id = r.id AND e.status = 'ready'
          AND (e.not_before IS NULL OR e.not_before <= $3)
      )
    ORDER BY r.position
    LIMIT (SELECT $2::int)
  ) r`;

export const CLAIM = sql(`
WITH picked AS MATERIALIZED (
  SELECT t.id, r.position
  FROM ${FIRST_RUNS} JOIN tasks t ON t.run_id = r.id
  WHERE t.status = 'ready' AND (t.not_before IS NULL OR t.not_before <= $3)
  ORDER BY r.position, t.priority DESC, t.created, t.id
  LIMIT $2
  FOR UPDATE OF t SKIP LOCKED
), claimed AS (
  UPDATE tasks u SET status = 'in_progress', started = $3, claim = u.claim + 1
  WHERE u.id = ANY(ARRAY(SELECT id FROM picked)) AND u.status = 'ready'
  RETURNING u.*
)
SELECT claimed.*, picked.position AS run_position,
  (SELECT row_to_json(r) FROM runs r WHERE r.id = claimed.run_id) AS run_row
FROM claimed JOIN picked ON picked.id = claimed.id`);

// The claim of a server sharing the schema (ClaimScope): it names the server as the owner,
// takes nothing while the server's own row is gone or its lease has run out, and no more than
// the pool's capacity less the pool's attempts in progress on every server. Every transaction
// on the schema holds its write lock (transaction.ts), so the count cannot change under it. Each
// attempt in progress finds its run's workflow by key (a subquery per row): joined instead, a
// plan made while `runs` was young scanned the whole table every claim.
export const CLAIM_SHARED = sql(`
WITH picked AS MATERIALIZED (
  SELECT t.id, r.position
  FROM ${FIRST_RUNS} JOIN tasks t ON t.run_id = r.id
  WHERE t.status = 'ready' AND (t.not_before IS NULL OR t.not_before <= $3)
    AND EXISTS (SELECT 1 FROM servers s WHERE s.id = $4 AND s.lease_until > clock_timestamp())
  ORDER BY r.position, t.priority DESC, t.created, t.id
  LIMIT GREATEST(0, LEAST($2::int, $5::int - (
    SELECT count(*) FROM tasks b WHERE b.status = 'in_progress'
      AND (SELECT br.workflow FROM runs br WHERE br.id = b.run_id) = ANY($1::text[])
  )::int))
  FOR UPDATE OF t SKIP LOCKED
), claimed AS (
  UPDATE tasks u SET status = 'in_progress', started = $3, claim = u.claim + 1, owner = $4
  WHERE u.id = ANY(ARRAY(SELECT id FROM picked)) AND u.status = 'ready'
  RETURNING u.*
)
SELECT claimed.*, picked.position AS run_position,
  (SELECT row_to_json(r) FROM runs r WHERE r.id = claimed.run_id) AS run_row
FROM claimed JOIN picked ON picked.id = claimed.id`);

type Claimed = { task: TaskRecord; position: number; run: RunRecord };

function dispatchOrder(a: Claimed, b: Claimed): number {
  return (
    a.position - b.position ||
    b.task.priority - a.task.priority ||
    a.task.created - b.task.created ||
    a.task.id - b.task.id
  );
}

/** The claimed attempts in dispatch order, each with its run's row as the claim read it. */
export async function claimTasks(
  db: Db,
  workflows: readonly string[],
  limit: number,
  now: number,
  scope?: ClaimScope,
): Promise<Array<{ task: TaskRecord; run: RunRecord }>> {
  if (workflows.length === 0 || !(limit >= 1)) return [];
  const n = Math.min(Math.floor(limit), 2 ** 31 - 1);
  const found = scope
    ? await rows(db, CLAIM_SHARED, [[...workflows], n, now, scope.owner, scope.capacity])
    : await rows(db, CLAIM, [[...workflows], n, now]);
  const claimed = found.map((row) => ({
    task: toTask(row),
    position: row.run_position,
    run: toRun(row.run_row),
  }));
  return claimed.sort(dispatchOrder);
}

// The dispatcher's timer: the earliest moment after `after` at which a ready attempt of these
// workflows becomes claimable, from the partial index of ready rows that wait for a moment.
const NEXT_DUE = sql(`
SELECT MIN(t.not_before) AS at FROM tasks t JOIN runs r ON r.id = t.run_id
WHERE t.status = 'ready' AND t.not_before IS NOT NULL AND t.not_before > $2
  AND r.workflow = ANY($1::text[])`);

export async function nextNotBefore(
  db: Db,
  workflows: readonly string[],
  after: number,
): Promise<number | null> {
  if (workflows.length === 0) return null;
  const found = await rows(db, NEXT_DUE, [[...workflows], after]);
  return found[0]?.at ?? null;
}
