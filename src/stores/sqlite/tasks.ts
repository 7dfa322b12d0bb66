// Tasks (attempts): lookups, inserts and guarded updates. The guard sits in the UPDATE's WHERE
// clause so "check then write" is one statement: a completion that lost its claim changes
// nothing and gets null back.
import type Database from "better-sqlite3";
import {
  NEW_TASK_STATE,
  type NewTask,
  TASK_STATUSES,
  type TaskFilter,
  type TaskGuard,
  type TaskRecord,
  type TaskStatus,
} from "../../engine/index.ts";
import type { Row } from "./codec.ts";
import { taskCodec } from "./columns.ts";
import { MultiRowInsert } from "./multi-row.ts";
import { PatchStatements } from "./patch.ts";
import { RecordQuery } from "./record-query.ts";

const GET_TASK = "SELECT * FROM tasks WHERE id = ?";

const FIND_BY_TOKEN_HASH = "SELECT * FROM tasks WHERE token_hash = ? ORDER BY id LIMIT 1";

// Four shapes so each filter can use its index: by run, by going statuses (the partial
// `tasks_going`, whose condition the statement repeats word for word so SQLite may use it), by
// other statuses (no caller does; a scan in id order), or neither.
const GOING_STATUSES: readonly TaskStatus[] = ["in_progress", "waiting"];
const GOING = statusIn(GOING_STATUSES);
const STATUS_MATCH = "(@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses)))";
const NODE_MATCH = "(@node IS NULL OR node = @node)";
const LIST_TASKS_OF_RUN = `SELECT * FROM tasks
WHERE run_id = @run_id AND ${STATUS_MATCH} AND ${NODE_MATCH} ORDER BY id`;
const LIST_GOING_TASKS = `SELECT * FROM tasks INDEXED BY tasks_going
WHERE ${GOING} AND status IN (SELECT value FROM json_each(@statuses)) AND ${NODE_MATCH}
ORDER BY id`;
const LIST_TASKS_BY_STATUS = `SELECT * FROM tasks
WHERE status IN (SELECT value FROM json_each(@statuses)) AND ${NODE_MATCH} ORDER BY id`;
const LIST_TASKS = `SELECT * FROM tasks WHERE ${NODE_MATCH} ORDER BY id`;

// Two seeks, each on a partial index that holds only live attempts: the run's ready rows
// (`tasks_ready`), and its going ones (`tasks_going`), which the pools' capacity and the
// people being asked keep few.
const HAS_OUTSTANDING = `SELECT
  EXISTS (SELECT 1 FROM tasks INDEXED BY tasks_ready WHERE run_id = @run_id AND status = 'ready')
  OR EXISTS (SELECT 1 FROM tasks INDEXED BY tasks_going WHERE ${GOING} AND run_id = @run_id)`;

// Columns left out take their schema defaults: a new attempt is ready, unclaimed, unfinished.
// The row is not read back (one insert per enqueue is on the hot path): the record is the
// values bound, decoded as a read would (JSON columns parsed from the text stored), plus those
// defaults (NEW_TASK_STATE, the same values) and the new rowid. Many tasks (a batch submit's
// start tasks) go in with one multi-row INSERT per chunk (multi-row.ts), their ids consecutive.
const TASK_COLUMNS = [
  "run_id",
  "node",
  "attempt",
  "priority",
  "explicit",
  "created",
  "payload_present",
  "payload",
  "branch",
  "lineage",
];
const INSERTION = taskCodec.insertion(TASK_COLUMNS, "id");

// The status guard is written into the statement text (one cached statement per guard set; the
// engine uses a few) rather than bound as JSON for json_each, which cost a third of the update.
// Only known statuses are ever written into SQL.
function statusIn(statuses: readonly TaskStatus[]): string {
  for (const s of statuses) {
    if (!TASK_STATUSES.includes(s)) throw new Error(`tasks: unknown status ${String(s)}`);
  }
  return `status IN (${statuses.map((s) => `'${s}'`).join(", ")})`;
}
const guardStatus = (statuses: readonly TaskStatus[]): string => ` AND ${statusIn(statuses)}`;
const GUARD_CLAIM = " AND claim = @guard_claim";

export function taskReads(db: Database.Database) {
  const get = new RecordQuery(db, GET_TASK, taskCodec);
  const byToken = new RecordQuery(db, FIND_BY_TOKEN_HASH, taskCodec);
  const ofRun = new RecordQuery(db, LIST_TASKS_OF_RUN, taskCodec);
  const going = new RecordQuery(db, LIST_GOING_TASKS, taskCodec);
  const byStatus = new RecordQuery(db, LIST_TASKS_BY_STATUS, taskCodec);
  const all = new RecordQuery(db, LIST_TASKS, taskCodec);
  const outstanding = db.prepare<[Row], number>(HAS_OUTSTANDING).pluck();
  return {
    hasOutstanding: (runId: string): boolean => outstanding.get({ run_id: runId }) === 1,
    get: (id: number): TaskRecord | null => get.get(id),
    findByTokenHash: (hash: string): TaskRecord | null => byToken.get(hash),
    list(filter: TaskFilter): TaskRecord[] {
      const params = {
        run_id: filter.run_id ?? null,
        statuses: filter.status === undefined ? null : JSON.stringify(filter.status),
        node: filter.node ?? null,
      };
      if (filter.run_id !== undefined) return ofRun.all(params);
      if (filter.status === undefined) return all.all(params);
      const onlyGoing = filter.status.every((s) => GOING_STATUSES.includes(s));
      return (onlyGoing ? going : byStatus).all(params);
    },
  };
}

/** The record of a row just inserted from `values`. */
const stored = (values: readonly unknown[], id: number): TaskRecord =>
  INSERTION.stored(values, id, NEW_TASK_STATE);

export function taskWrites(db: Database.Database) {
  const insertMany = new MultiRowInsert(db, "tasks", TASK_COLUMNS);
  const patch = new PatchStatements(db, {
    table: "tasks",
    codec: taskCodec,
    fixed: ["id", "run_id"],
  });
  return {
    insert(task: NewTask): TaskRecord {
      const values = INSERTION.encode(task);
      return stored(values, insertMany.run([values]));
    },
    /** `insert` for each of `tasks`, in order (their ids ascend in that order). */
    insertMany(tasks: readonly NewTask[]): TaskRecord[] {
      const rows = tasks.map(INSERTION.encode);
      const first = insertMany.run(rows) - rows.length + 1;
      return rows.map((values, i) => stored(values, first + i));
    },
    /** `known`: the row as it stands, when the caller holds it; then it is not read back. */
    update(
      id: number,
      fields: Partial<Omit<TaskRecord, "id" | "run_id">>,
      guard: TaskGuard = {},
      known?: TaskRecord,
    ): TaskRecord | null {
      let extra = "";
      const params: Row = {};
      if (guard.status !== undefined) extra += guardStatus(guard.status);
      if (guard.claim !== undefined) {
        extra += GUARD_CLAIM;
        params.guard_claim = guard.claim;
      }
      if (known === undefined) return patch.run(id, fields, extra, params);
      return patch.over(id, fields, extra, params, known);
    },
  };
}

export type TaskReads = ReturnType<typeof taskReads>;
export type TaskWrites = ReturnType<typeof taskWrites>;
