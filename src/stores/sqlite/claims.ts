// The dispatcher's claim, inside the caller's transaction: the next ready attempts in dispatch
// order come from the writer's ready index (ready-index.ts), and each is marked in_progress by
// its primary key. The UPDATE repeats `status = 'ready'`, so a row is never claimed twice even if
// the index were wrong; should a row not match, the index is reloaded from the tables and the
// claim goes on from there. PostgreSQL form (several servers sharing pools, no shared index):
// SELECT the ids in dispatch order with FOR UPDATE OF t SKIP LOCKED, then this UPDATE.
import type Database from "better-sqlite3";
import type { RunRecord, TaskRecord } from "../../engine/index.ts";
import { runCodec, taskCodec } from "./columns.ts";
import type { HeldTask } from "./held-task.ts";
import { type IndexSource, ReadyIndex } from "./ready-index.ts";
import { RecordQuery } from "./record-query.ts";
import { runReads } from "./runs.ts";

const TAKE_TASK = `
UPDATE tasks SET status = 'in_progress', started = ?, claim = claim + 1
WHERE id = ? AND status = 'ready'`;

// What the index is loaded from: both walk a partial index, never the history. `runs_open`
// also holds paused runs; its own predicate is repeated word for word so SQLite may use it.
export const ACTIVE_RUNS = `SELECT * FROM runs INDEXED BY runs_open
WHERE status IN ('queued', 'running', 'paused') AND status IN ('queued', 'running')`;
export const READY_TASKS = "SELECT * FROM tasks INDEXED BY tasks_ready WHERE status = 'ready'";
function indexSource(db: Database.Database): IndexSource {
  const active = new RecordQuery(db, ACTIVE_RUNS, runCodec);
  const ready = new RecordQuery(db, READY_TASKS, taskCodec);
  const runs = runReads(db);
  return {
    activeRuns: (): RunRecord[] => active.all(),
    readyTasks: (): TaskRecord[] => ready.all(),
    getRun: runs.get,
  };
}

export function claimWrites(db: Database.Database) {
  const take = db.prepare<[number, number]>(TAKE_TASK);
  const index = new ReadyIndex(indexSource(db));
  return {
    index,
    /**
     * `held`: the task the unit inserted last, not yet written (held-task.ts). Claimed, it goes
     * in claimed; any other claim, or reloading the index, writes it first.
     */
    claim(workflows: readonly string[], limit: number, now: number, held?: HeldTask): TaskRecord[] {
      if (workflows.length === 0 || !(limit >= 1)) return [];
      const n = Math.floor(limit);
      const out: TaskRecord[] = [];
      // A second round only after a row did not match, with the index reloaded.
      for (let round = 0; round < 2 && out.length < n; round++) {
        let mismatch = false;
        if (!index.loaded) held?.flush();
        for (const task of index.take(workflows, n - out.length, now)) {
          if (held !== undefined && task.id === held.id) {
            const claimed = held.claim(now);
            index.taskWritten({ ...claimed });
            out.push(claimed);
            continue;
          }
          held?.flush();
          if (take.run(now, task.id).changes === 1) {
            const claimed = { ...task, status: "in_progress" as const, started: now };
            claimed.claim += 1;
            index.taskWritten({ ...claimed });
            out.push(claimed);
          } else mismatch = true;
        }
        if (!mismatch) break;
        index.drop();
      }
      return out;
    },
  };
}

export type ClaimWrites = ReturnType<typeof claimWrites>;
