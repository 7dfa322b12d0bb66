// The dispatcher's claim: pick the next ready tasks in dispatch order and mark them in_progress
// in ONE statement, so no other claimer can take the same rows in between.
//
// PostgreSQL form (several servers sharing pools): the inner SELECT becomes
//   SELECT t.id FROM runs r JOIN tasks t ON ... WHERE ... ORDER BY ... LIMIT $n
//   FOR UPDATE OF t SKIP LOCKED
// so concurrent claimers pass over each other's rows instead of waiting on them. RETURNING
// has no defined order, so it also answers the run position to sort by.
import type Database from "better-sqlite3";
import type { TaskRecord } from "../../engine/domain.ts";
import type { Row } from "./codec.ts";
import { taskCodec } from "./columns.ts";

// Plan: walk `runs_active` (queued and running runs only) in position order and probe
// `tasks_ready` for each run, which yields the in-run order too; the sorter then only orders
// within a run and stops once LIMIT rows are out. The cost is the runs passed over (active runs
// of other workflows or with nothing ready) plus the rows claimed, never the size of the
// history. CROSS JOIN and INDEXED BY pin that plan in SQLite; left to itself the planner may
// instead sort every ready task (10 ms per claim at 10,000 ready tasks instead of 0.1 ms).
// PostgreSQL: a plain JOIN, the equivalent partial indexes, and FOR UPDATE OF t SKIP LOCKED.
export const CLAIM_TASKS = `
UPDATE tasks SET status = 'in_progress', started = @now, claim = claim + 1
WHERE id IN (
  SELECT t.id FROM runs r INDEXED BY runs_active CROSS JOIN tasks t
  WHERE t.run_id = r.id
    AND t.status = 'ready'
    AND r.status IN ('queued', 'running')
    AND r.workflow IN (SELECT value FROM json_each(@workflows))
  ORDER BY r.position, t.priority DESC, t.created, t.id
  LIMIT @limit)
RETURNING *, (SELECT position FROM runs WHERE runs.id = tasks.run_id) AS run_position`;

/** Same keys as the ORDER BY above. */
function dispatchOrder(a: Row, b: Row): number {
  return (
    (a.run_position as number) - (b.run_position as number) ||
    (b.priority as number) - (a.priority as number) ||
    (a.created as number) - (b.created as number) ||
    (a.id as number) - (b.id as number)
  );
}

export function claimWrites(db: Database.Database) {
  const claim = db.prepare<[Row], Row>(CLAIM_TASKS);
  return {
    claim(workflows: readonly string[], limit: number, now: number): TaskRecord[] {
      if (workflows.length === 0 || !(limit >= 1)) return [];
      const rows = claim.all({
        workflows: JSON.stringify(workflows),
        limit: Math.floor(limit),
        now,
      });
      return rows.sort(dispatchOrder).map(taskCodec.decode);
    },
  };
}

export type ClaimWrites = ReturnType<typeof claimWrites>;
