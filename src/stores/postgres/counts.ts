// Counts of what is open, in one statement (one round trip). Each count's condition implies the
// predicate of a partial index holding only live rows (runs_active, runs_paused, tasks_ready,
// tasks_going, requests_pending), so the cost follows the open runs and attempts, not history.
import type { OpenCounts } from "../../engine/store.ts";
import { type Db, first, rows, sql } from "./sql.ts";

const OPEN_COUNTS = sql(`SELECT
  (SELECT count(*) FROM runs WHERE status = 'queued') AS runs_queued,
  (SELECT count(*) FROM runs WHERE status = 'running') AS runs_running,
  (SELECT count(*) FROM runs WHERE status = 'paused') AS runs_paused,
  (SELECT count(*) FROM tasks WHERE status = 'ready') AS tasks_ready,
  (SELECT count(*) FROM tasks WHERE status = 'in_progress') AS tasks_in_progress,
  (SELECT count(*) FROM tasks WHERE status = 'waiting') AS tasks_waiting,
  (SELECT count(*) FROM requests WHERE answered_by IS NULL AND NOT stale) AS requests_pending`);

// runs_active holds each dispatchable run's workflow; tasks_ready is probed per run, as a claim.
const READY_BY_WORKFLOW = sql(`SELECT r.workflow, count(*) AS n
FROM runs r JOIN tasks t ON t.run_id = r.id AND t.status = 'ready'
WHERE r.status IN ('queued', 'running') GROUP BY r.workflow`);

export async function countOpen(db: Db): Promise<OpenCounts> {
  const row = (await first(db, OPEN_COUNTS))!;
  return {
    runs: { queued: row.runs_queued, running: row.runs_running, paused: row.runs_paused },
    tasks: {
      ready: row.tasks_ready,
      in_progress: row.tasks_in_progress,
      waiting: row.tasks_waiting,
    },
    requests_pending: row.requests_pending,
  };
}

export async function countReady(db: Db): Promise<Record<string, number>> {
  const found = await rows(db, READY_BY_WORKFLOW);
  return Object.fromEntries(found.map((row) => [row.workflow as string, row.n as number]));
}
