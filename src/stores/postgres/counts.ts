// Counts for health and metrics. Each condition implies the predicate of a partial index that
// holds only open or live rows (runs_open, tasks_ready, tasks_going, requests_pending), so the
// planner counts from the index and the cost follows what is open, never the history. The
// status is written into each statement, not bound: a plan made for any `$1` could not prove
// that a partial index covers it.
import {
  LIVE_TASK_STATUSES,
  type LiveTaskStatus,
  OPEN_RUN_STATUSES,
  type OpenRunStatus,
} from "../../engine/index.ts";
import { type Db, first, rows, type Statement, sql } from "./sql.ts";

const byStatus = <S extends string>(statuses: readonly S[], table: string) =>
  new Map<S, Statement>(
    statuses.map((s) => [s, sql(`SELECT count(*) AS n FROM ${table} WHERE status = '${s}'`)]),
  );
const RUNS = byStatus(OPEN_RUN_STATUSES, "runs");
const TASKS = byStatus(LIVE_TASK_STATUSES, "tasks");
const PENDING_REQUESTS = sql(
  "SELECT count(*) AS n FROM requests WHERE answered_by IS NULL AND NOT stale",
);
// runs_open holds each dispatchable run; tasks_ready is probed per run, as a claim does.
const READY_BY_WORKFLOW = sql(`SELECT r.workflow, count(*) AS n
FROM runs r JOIN tasks t ON t.run_id = r.id AND t.status = 'ready'
WHERE r.status IN ('queued', 'running') GROUP BY r.workflow`);

export async function countRuns(db: Db, status: OpenRunStatus): Promise<number> {
  return (await first(db, RUNS.get(status)!))!.n;
}

export async function countTasks(db: Db, status: LiveTaskStatus): Promise<number> {
  return (await first(db, TASKS.get(status)!))!.n;
}

export async function countPendingRequests(db: Db): Promise<number> {
  return (await first(db, PENDING_REQUESTS))!.n;
}

export async function countReady(db: Db): Promise<Record<string, number>> {
  const found = await rows(db, READY_BY_WORKFLOW);
  return Object.fromEntries(found.map((row) => [row.workflow as string, row.n as number]));
}
