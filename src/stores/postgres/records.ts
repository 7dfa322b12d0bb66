// The work log of a run, the submissions accepted for an attempt (both append-only), and the
// requests for human input (permissions, elicitations, questions).
import type {
  LogRecord,
  RequestFilter,
  RequestRecord,
  SubmissionRecord,
} from "../../engine/index.ts";
import type { Deferred } from "./deferred.ts";
import { type PatchTable, patchQuery } from "./patch.ts";
import { toLog, toRequest, toSubmission } from "./rows.ts";
import { type Db, first, json, rows, sql, where } from "./sql.ts";

const INSERT_LOG = sql(`
INSERT INTO log (run_id, node, task_id, author, kind, text, created, operator)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *`);
const LIST_LOG = sql("SELECT * FROM log WHERE run_id = $1 ORDER BY id");

const INSERT_SUBMISSION = sql(`
INSERT INTO submissions (task_id, created, payload) VALUES ($1, $2, $3) RETURNING *`);
const LIST_SUBMISSIONS = sql("SELECT * FROM submissions WHERE task_id = $1 ORDER BY id");
const MARK_AGENT_RESULT = sql("UPDATE submissions SET agent_call = $1 WHERE id = $2");

const GET_REQUEST = sql("SELECT * FROM requests WHERE id = $1");
const INSERT_REQUEST = sql(`
INSERT INTO requests (run_id, task_id, node, kind, mode, source, ordinal, prompt, options, schema,
  tool_call, answered_by, answer, stale, created, answered, operator)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
RETURNING *`);
// Spelled like the predicate of the partial index `requests_pending`.
const PENDING = "answered_by IS NULL AND NOT stale";

const REQUESTS: PatchTable = {
  table: "requests",
  columns: [
    "stale",
    "run_id",
    "task_id",
    "node",
    "kind",
    "mode",
    "source",
    "ordinal",
    "prompt",
    "options",
    "schema",
    "tool_call",
    "answered_by",
    "answer",
    "created",
    "answered",
    "operator",
  ],
  json: ["options", "schema", "tool_call", "answer"],
};

export async function appendLog(db: Db, entry: Omit<LogRecord, "id">): Promise<LogRecord> {
  const { run_id, node, task_id, author, kind, text, created, operator } = entry;
  const values = [
    ...[run_id, node, task_id ?? null, author, kind ?? null, text, created],
    operator ?? null,
  ];
  return toLog((await first(db, INSERT_LOG, values))!);
}

export async function listLog(db: Db, runId: string): Promise<LogRecord[]> {
  return (await rows(db, LIST_LOG, [runId])).map(toLog);
}

export async function insertSubmission(
  db: Db,
  entry: Omit<SubmissionRecord, "id" | "agent_call">,
): Promise<SubmissionRecord> {
  const values = [entry.task_id, entry.created, json(entry.payload)];
  return toSubmission((await first(db, INSERT_SUBMISSION, values))!);
}

export async function markAgentResult(db: Db, id: number, call: number): Promise<void> {
  await db.run(MARK_AGENT_RESULT, [call, id]);
}

export async function listSubmissions(db: Db, taskId: number): Promise<SubmissionRecord[]> {
  return (await rows(db, LIST_SUBMISSIONS, [taskId])).map(toSubmission);
}

export async function getRequest(db: Db, id: number): Promise<RequestRecord | null> {
  const row = await first(db, GET_REQUEST, [id]);
  return row && toRequest(row);
}

export async function listRequests(db: Db, filter: RequestFilter = {}): Promise<RequestRecord[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (filter.run_id !== undefined) {
    values.push(filter.run_id);
    conditions.push(`run_id = $${values.length}`);
  }
  if (filter.task_id !== undefined) {
    values.push(filter.task_id);
    conditions.push(`task_id = $${values.length}`);
  }
  if (filter.pending === true) conditions.push(PENDING);
  const statement = sql(`SELECT * FROM requests ${where(conditions)} ORDER BY id`);
  return (await rows(db, statement, values)).map(toRequest);
}

export async function insertRequest(db: Db, r: Omit<RequestRecord, "id">): Promise<RequestRecord> {
  const values = [
    r.run_id,
    r.task_id,
    r.node,
    r.kind,
    r.mode,
    r.source,
    r.ordinal ?? null,
    r.prompt,
    json(r.options),
    json(r.schema),
    json(r.tool_call),
    r.answered_by ?? null,
    json(r.answer),
    r.stale,
    r.created,
    r.answered ?? null,
    r.operator ?? null,
  ];
  return toRequest((await first(db, INSERT_REQUEST, values))!);
}

const STALE = `UPDATE requests SET stale = TRUE WHERE task_id = ANY($1::bigint[]) AND ${PENDING}`;
const STALE_OF_SOURCE = `${STALE} AND source = $2::text`;

/** `staleRequests` of these tasks as one write the writer holds back (deferred.ts). */
export function staleWrite(taskIds: readonly number[], source?: RequestRecord["source"]): Deferred {
  if (source === undefined) return { table: "requests", text: STALE, values: [taskIds] };
  return { table: "requests", text: STALE_OF_SOURCE, values: [taskIds, source] };
}

export async function updateRequest(
  db: Db,
  id: number,
  patch: Partial<Omit<RequestRecord, "id">>,
): Promise<RequestRecord> {
  const { statement, values } = patchQuery(REQUESTS, id, patch);
  const row = await first(db, statement, values);
  if (row === null) throw new Error(`request ${id} not found`);
  return toRequest(row);
}
