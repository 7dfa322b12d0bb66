// Requests for human input (permissions, elicitations, questions).
import type Database from "better-sqlite3";
import type { RequestFilter, RequestRecord } from "../../engine/index.ts";
import { requestCodec } from "./columns.ts";
import { PatchStatements } from "./patch.ts";
import { RecordQuery } from "./record-query.ts";

const GET_REQUEST = "SELECT * FROM requests WHERE id = ?";

const INSERT_REQUEST = `
INSERT INTO requests (run_id, task_id, node, kind, mode, source, ordinal, prompt, options, schema,
  tool_call, answered_by, answer, stale, created, answered, operator)
VALUES (@run_id, @task_id, @node, @kind, @mode, @source, @ordinal, @prompt, @options, @schema,
  @tool_call, @answered_by, @answer, @stale, @created, @answered, @operator)
RETURNING *`;

// "Pending" is spelled exactly like the partial index `requests_pending`, so the planner uses it.
const PENDING = "(answered_by IS NULL AND stale = 0)";
const TASK_MATCH = "(@task_id IS NULL OR task_id = @task_id)";
const PENDING_MATCH = `(@pending = 0 OR ${PENDING})`;
const LIST_RUN_REQUESTS = `SELECT * FROM requests
WHERE run_id = @run_id AND ${TASK_MATCH} AND ${PENDING_MATCH} ORDER BY id`;
const LIST_TASK_REQUESTS = `SELECT * FROM requests
WHERE task_id = @task_id AND ${PENDING_MATCH} ORDER BY id`;
const LIST_PENDING_REQUESTS = `SELECT * FROM requests WHERE ${PENDING} ORDER BY id`;
const LIST_REQUESTS = "SELECT * FROM requests ORDER BY id";

export function requestReads(db: Database.Database) {
  const get = new RecordQuery(db, GET_REQUEST, requestCodec);
  const ofRun = new RecordQuery(db, LIST_RUN_REQUESTS, requestCodec);
  const ofTask = new RecordQuery(db, LIST_TASK_REQUESTS, requestCodec);
  const pending = new RecordQuery(db, LIST_PENDING_REQUESTS, requestCodec);
  const all = new RecordQuery(db, LIST_REQUESTS, requestCodec);
  return {
    get: (id: number): RequestRecord | null => get.get(id),
    list(filter: RequestFilter = {}): RequestRecord[] {
      const params = {
        run_id: filter.run_id ?? null,
        task_id: filter.task_id ?? null,
        pending: filter.pending === true ? 1 : 0,
      };
      const statement =
        filter.run_id !== undefined
          ? ofRun
          : filter.task_id !== undefined
            ? ofTask
            : filter.pending === true
              ? pending
              : all;
      return statement.all(params);
    },
  };
}

const STALE_REQUESTS = `UPDATE requests SET stale = 1
WHERE task_id = @task_id AND ${PENDING} AND (@source IS NULL OR source = @source)`;

// The tasks with pending requests, through `requests_pending` (few: people and agents asked).
const ASKING_TASKS = `SELECT DISTINCT task_id FROM requests WHERE ${PENDING}`;

const pending = (r: RequestRecord): boolean => r.answered_by === null && !r.stale;

/**
 * The writer's requests. `stale` runs after every attempt's outcome, and almost no attempt ever
 * asked anything: the writer knows which tasks may have pending requests (`asking`, read from
 * the table on first use and followed by its own inserts and updates, as the ready index is),
 * and skips the UPDATE for any other task. It may name a task with none pending (an answered
 * request keeps its task in it until the task's requests are staled), never the reverse;
 * `drop` forgets it when a unit rolls back (the rows it followed may be undone), and the next
 * `stale` reads it again.
 */
export function requestWrites(db: Database.Database) {
  const insert = new RecordQuery(db, INSERT_REQUEST, requestCodec);
  const stale = db.prepare(STALE_REQUESTS);
  const askingTasks = db.prepare<[], number>(ASKING_TASKS).pluck();
  const patch = new PatchStatements(db, { table: "requests", codec: requestCodec, fixed: ["id"] });
  let asking: Set<number> | null = null;
  const follow = (request: RequestRecord): RequestRecord => {
    if (asking !== null && pending(request)) asking.add(request.task_id);
    return request;
  };
  return {
    insert: (request: Omit<RequestRecord, "id">): RequestRecord =>
      follow(insert.get(requestCodec.encodeAll(request))!),
    update(id: number, fields: Partial<Omit<RequestRecord, "id">>): RequestRecord {
      const request = patch.run(id, fields, "", {});
      if (request === null) throw new Error(`request ${id} not found`);
      return follow(request);
    },
    stale(taskId: number, source?: RequestRecord["source"]): void {
      asking ??= new Set(askingTasks.all());
      if (!asking.has(taskId)) return;
      stale.run({ task_id: taskId, source: source ?? null });
      // Every pending request of the task is stale now; with a source, others may be left.
      if (source === undefined) asking.delete(taskId);
    },
    /** Forgets which tasks are asking (a unit rolled back); read again on the next `stale`. */
    drop(): void {
      asking = null;
    },
  };
}

export type RequestReads = ReturnType<typeof requestReads>;
export type RequestWrites = ReturnType<typeof requestWrites>;
