// Counts of what is open, each answered from a partial index that holds only live rows, so the
// cost follows the open runs and attempts, never the history. Every WHERE is spelled like its
// index's own predicate: SQLite uses a partial index only for a query whose terms imply it.
import type Database from "better-sqlite3";
import type { OpenCounts } from "../../engine/store.ts";
import type { Row } from "./codec.ts";

// runs_active: a lookup per run for its status, but only over queued and running runs.
const ACTIVE_RUNS = `SELECT status, COUNT(*) AS n FROM runs
WHERE status IN ('queued', 'running') GROUP BY status`;
const PAUSED_RUNS = "SELECT COUNT(*) AS n FROM runs WHERE status = 'paused'";
const READY_TASKS = "SELECT COUNT(*) AS n FROM tasks WHERE status = 'ready'";
const GOING_TASKS = `SELECT status, COUNT(*) AS n FROM tasks
WHERE status IN ('in_progress', 'waiting') GROUP BY status`;
const PENDING_REQUESTS =
  "SELECT COUNT(*) AS n FROM requests WHERE (answered_by IS NULL AND stale = 0)";
// Walks runs_active (which holds each run's workflow) and probes tasks_ready per run, as a claim.
const READY_BY_WORKFLOW = `SELECT r.workflow AS workflow, COUNT(*) AS n
FROM runs r JOIN tasks t ON t.run_id = r.id AND t.status = 'ready'
WHERE r.status IN ('queued', 'running') GROUP BY r.workflow`;

export function countReads(db: Database.Database) {
  const statements = {
    activeRuns: db.prepare<[], Row>(ACTIVE_RUNS),
    pausedRuns: db.prepare<[], Row>(PAUSED_RUNS),
    readyTasks: db.prepare<[], Row>(READY_TASKS),
    goingTasks: db.prepare<[], Row>(GOING_TASKS),
    pendingRequests: db.prepare<[], Row>(PENDING_REQUESTS),
    readyByWorkflow: db.prepare<[], Row>(READY_BY_WORKFLOW),
  };
  const byStatus = (rows: Row[]) =>
    Object.fromEntries(rows.map((row) => [row.status as string, row.n as number]));
  const count = (statement: Database.Statement<[], Row>) => statement.get()!.n as number;
  return {
    open(): OpenCounts {
      const runs = byStatus(statements.activeRuns.all());
      const tasks = byStatus(statements.goingTasks.all());
      return {
        runs: {
          queued: runs.queued ?? 0,
          running: runs.running ?? 0,
          paused: count(statements.pausedRuns),
        },
        tasks: {
          ready: count(statements.readyTasks),
          in_progress: tasks.in_progress ?? 0,
          waiting: tasks.waiting ?? 0,
        },
        requests_pending: count(statements.pendingRequests),
      };
    },
    readyByWorkflow(): Record<string, number> {
      const rows = statements.readyByWorkflow.all();
      return Object.fromEntries(rows.map((row) => [row.workflow as string, row.n as number]));
    },
  };
}
