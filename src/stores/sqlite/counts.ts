// Counts for health and metrics, each a COUNT over a partial index that holds only open or live
// rows (runs_open, tasks_ready, tasks_going, requests_pending), so the cost follows what is
// open, never the history. Each WHERE repeats its index's own predicate word for word: SQLite
// uses a partial index only for a query whose terms imply it.
import type Database from "better-sqlite3";
import {
  LIVE_TASK_STATUSES,
  type LiveTaskStatus,
  OPEN_RUN_STATUSES,
  type OpenRunStatus,
} from "../../engine/index.ts";
import type { Row } from "./codec.ts";

const runCount = (status: OpenRunStatus) => `SELECT COUNT(*) AS n FROM runs
WHERE status IN ('queued', 'running', 'paused') AND status = '${status}'`;
const taskCount = (status: LiveTaskStatus) =>
  status === "ready"
    ? "SELECT COUNT(*) AS n FROM tasks WHERE status = 'ready'"
    : `SELECT COUNT(*) AS n FROM tasks
WHERE status IN ('in_progress', 'waiting') AND status = '${status}'`;
// Pinned: on a table of small rows the planner may prefer a scan of them all.
const PENDING_REQUESTS = `SELECT COUNT(*) AS n FROM requests INDEXED BY requests_pending
WHERE (answered_by IS NULL AND stale = 0)`;
// Scans tasks_ready and reads each ready attempt's run (its workflow, whether it can dispatch).
const READY_BY_WORKFLOW = `SELECT r.workflow AS workflow, COUNT(*) AS n
FROM runs r JOIN tasks t ON t.run_id = r.id AND t.status = 'ready'
WHERE r.status IN ('queued', 'running') GROUP BY r.workflow`;

// The dispatcher's timer: the earliest not-before still ahead among ready rows of the given
// workflows, from the partial index of ready rows that wait for a moment (tasks_deferred).
const NEXT_NOT_BEFORE = `SELECT MIN(t.not_before) AS at FROM tasks t INDEXED BY tasks_deferred
JOIN runs r ON r.id = t.run_id
WHERE t.status = 'ready' AND t.not_before IS NOT NULL AND t.not_before > @after
  AND r.workflow IN (SELECT value FROM json_each(@workflows))`;

export function countReads(db: Database.Database) {
  const counter = (sql: string) => {
    const statement = db.prepare<[], Row>(sql);
    return () => statement.get()!.n as number;
  };
  const runs = new Map(OPEN_RUN_STATUSES.map((s) => [s, counter(runCount(s))]));
  const tasks = new Map(LIVE_TASK_STATUSES.map((s) => [s, counter(taskCount(s))]));
  const pending = counter(PENDING_REQUESTS);
  const ready = db.prepare<[], Row>(READY_BY_WORKFLOW);
  const nextDue = db.prepare<[Row], Row>(NEXT_NOT_BEFORE);
  return {
    runs: (status: OpenRunStatus): number => runs.get(status)!(),
    tasks: (status: LiveTaskStatus): number => tasks.get(status)!(),
    pendingRequests: pending,
    nextNotBefore(workflows: readonly string[], after: number): number | null {
      if (workflows.length === 0) return null;
      const row = nextDue.get({ after, workflows: JSON.stringify(workflows) });
      return (row?.at as number | null) ?? null;
    },
    readyByWorkflow(): Record<string, number> {
      const rows = ready.all();
      return Object.fromEntries(rows.map((row) => [row.workflow as string, row.n as number]));
    },
  };
}
