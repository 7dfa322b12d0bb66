// Tasks (attempts): lookups, inserts and guarded updates. The guard sits in the UPDATE's WHERE
// clause, so "check then write" is one statement (and takes the row lock that makes it hold):
// a completion that lost its claim changes nothing and gets null back.
import {
  type ArrivalRecord,
  NEW_TASK_STATE,
  type NewTask,
  type RunRecord,
  type TaskFilter,
  type TaskGuard,
  type TaskRecord,
  type TaskUpdate,
} from "../../engine/index.ts";
import type { Deferred } from "./deferred.ts";
import { type Guard, type PatchTable, patchQuery } from "./patch.ts";
import { toArrival, toRun, toTask } from "./rows.ts";
import {
  type Db,
  first,
  json,
  type Row,
  rows,
  type Statement,
  sql,
  statusIn,
  where,
} from "./sql.ts";

const GET_TASK = sql("SELECT * FROM tasks WHERE id = $1");
const BY_TOKEN_HASH = sql("SELECT * FROM tasks WHERE token_hash = $1 ORDER BY id LIMIT 1");
// Spelled like the predicate of `tasks_live`, so it is answered from that partial index.
const HAS_OUTSTANDING = sql(`SELECT EXISTS (
  SELECT 1 FROM tasks WHERE run_id = $1 AND status IN ('ready', 'in_progress', 'waiting')
) AS found`);

// Columns left out take their defaults: a new attempt is ready, unclaimed, unfinished. The ids
// are the writer's (batch-ids.ts), so nothing needs to come back: one row, or several as
// arrays, each with its id.
const INSERT_TASK = `
INSERT INTO tasks (id, run_id, node, attempt, priority, explicit, created, payload_present,
  payload, branch, lineage)
OVERRIDING SYSTEM VALUE
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`;

const INSERT_TASKS = `
INSERT INTO tasks (id, run_id, node, attempt, priority, explicit, created, payload_present,
  payload, branch, lineage)
OVERRIDING SYSTEM VALUE
SELECT t.id, t.run_id, t.node, t.attempt, t.priority, t.explicit, t.created,
  t.payload_present, t.payload::json, t.branch::json, t.lineage::json
FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[], $5::double precision[],
  $6::boolean[], $7::bigint[], $8::boolean[], $9::text[], $10::text[], $11::text[])
  AS t(id, run_id, node, attempt, priority, explicit, created, payload_present, payload, branch,
    lineage)`;

const TASKS: PatchTable = {
  table: "tasks",
  columns: [
    "status",
    "node",
    "attempt",
    "priority",
    "explicit",
    "created",
    "started",
    "finished",
    "error",
    "payload_present",
    "payload",
    "result",
    "result_present",
    "terminal",
    "branch",
    "lineage",
    "stats",
    "claim",
    "token_hash",
    "used_s",
    "waiting_since",
    "error_stack",
    "not_before",
    "sleep_until",
    "sleeps",
    "owner",
  ],
  json: ["payload", "result", "branch", "lineage", "stats", "sleeps"],
};

export async function getTask(db: Db, id: number): Promise<TaskRecord | null> {
  const row = await first(db, GET_TASK, [id]);
  return row && toTask(row);
}

export async function findTaskByTokenHash(db: Db, hash: string): Promise<TaskRecord | null> {
  const row = await first(db, BY_TOKEN_HASH, [hash]);
  return row && toTask(row);
}

export async function hasOutstandingTasks(db: Db, runId: string): Promise<boolean> {
  return (await first(db, HAS_OUTSTANDING, [runId]))!.found;
}

// `hasOutstandingTasks` for the writer: when nothing is outstanding the engine settles the run
// next, reading its tasks and its arrivals, so the same statement answers them too (the
// subqueries are init plans, run only when the CASE takes them), in listTasks' and
// listArrivals' order.
const PROBE_SETTLE = sql(`
WITH o AS (
  SELECT EXISTS (
    SELECT 1 FROM tasks WHERE run_id = $1 AND status IN ('ready', 'in_progress', 'waiting')
  ) AS found
)
SELECT o.found,
  CASE WHEN o.found THEN NULL ELSE (
    SELECT COALESCE(json_agg(t ORDER BY t.id), '[]') FROM tasks t WHERE t.run_id = $1
  ) END AS tasks,
  CASE WHEN o.found THEN NULL ELSE (
    SELECT COALESCE(json_agg(a ORDER BY a.fanout, a.branch_index, a.seq), '[]')
    FROM arrivals a WHERE a.run_id = $1
  ) END AS arrivals
FROM o`);

/** The run's tasks and arrivals when none of its tasks is outstanding, else null. */
export async function probeSettle(db: Db, runId: string): Promise<Settling> {
  const row = (await first(db, PROBE_SETTLE, [runId]))!;
  if (row.found) return null;
  return { tasks: row.tasks.map(toTask), arrivals: row.arrivals.map(toArrival) };
}

export async function listTasks(db: Db, filter: TaskFilter): Promise<TaskRecord[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (filter.run_id !== undefined) {
    values.push(filter.run_id);
    conditions.push(`run_id = $${values.length}`);
  }
  if (filter.status !== undefined) conditions.push(statusIn(filter.status));
  if (filter.node !== undefined) {
    values.push(filter.node);
    conditions.push(`node = $${values.length}`);
  }
  const statement = sql(`SELECT * FROM tasks ${where(conditions)} ORDER BY id`);
  return (await rows(db, statement, values)).map(toTask);
}

/** A new task's values, in the column order of INSERT_TASK and INSERT_TASKS (after the id). */
const TASK_VALUES: ReadonlyArray<(t: NewTask) => unknown> = [
  (t) => t.run_id,
  (t) => t.node,
  (t) => t.attempt,
  (t) => t.priority,
  (t) => t.explicit,
  (t) => t.created,
  (t) => t.payload_present,
  (t) => json(t.payload),
  (t) => json(t.branch),
  (t) => json(t.lineage),
];

/** The row a new task is stored as, as a read answers it (JSON columns through their text). */
function newTask(id: number, t: NewTask, values: readonly unknown[]): TaskRecord {
  return toTask({
    ...NEW_TASK_STATE,
    id,
    run_id: t.run_id,
    node: t.node,
    attempt: t.attempt,
    priority: t.priority,
    explicit: t.explicit,
    created: t.created,
    payload_present: t.payload_present,
    payload: JSON.parse(values[7] as string),
    branch: JSON.parse(values[8] as string),
    lineage: JSON.parse(values[9] as string),
    owner: null,
  });
}

/** A new task held by the writer (deferred.ts): its id and its values in column order. */
export interface NewTaskRow {
  id: number;
  runId: string;
  values: readonly unknown[];
}

/** `task` as the row held for it, and the record it stores (as a read answers it). */
export function taskRow(id: number, task: NewTask): { held: NewTaskRow; row: TaskRecord } {
  const values = TASK_VALUES.map((value) => value(task));
  return { held: { id, runId: task.run_id, values }, row: newTask(id, task, values) };
}

/** The insert of the held new tasks: one statement, a row or arrays. */
export function tasksWrite(list: readonly NewTaskRow[]): Deferred {
  const inserts = list.map((t) => String(t.id));
  if (list.length === 1) {
    const [{ id, values }] = list;
    return { table: "tasks", text: INSERT_TASK, values: [id, ...values], inserts };
  }
  const columns = TASK_VALUES.map((_, i) => list.map((t) => t.values[i]));
  const values = [list.map((t) => t.id), ...columns];
  return { table: "tasks", text: INSERT_TASKS, values, inserts };
}

function guardOf(guard: TaskGuard): Guard {
  let text = "";
  const values: unknown[] = [];
  if (guard.status !== undefined) text += ` AND ${statusIn(guard.status)}`;
  if (guard.claim !== undefined) {
    values.push(guard.claim);
    text += ` AND claim = $G${values.length}`;
  }
  if (guard.room !== undefined) {
    values.push([...guard.room.workflows], guard.room.capacity);
    text +=
      " AND (SELECT count(*) FROM tasks b WHERE b.status = 'in_progress'" +
      " AND (SELECT br.workflow FROM runs br WHERE br.id = b.run_id)" +
      ` = ANY($G${values.length - 1}::text[]))` +
      ` < $G${values.length}`;
  }
  return { text, values };
}

/** What the settling probe read: null when some task of the run is outstanding. */
export type Settling = { tasks: TaskRecord[]; arrivals: ArrivalRecord[] } | null;

/**
 * What an update answers of the settling probe besides the task: nothing; whether a task of
 * the run is outstanding (`found`); or the probe's whole read (`full`).
 */
export type SettleRead = "none" | "found" | "full";

/** What the update answered of the probe: `found` alone, or the whole read (`Settling`). */
export type Carried = { found: true } | { found: false; read?: Settling };

/**
 * Applies the patch when the guard holds; answers the updated row and its run's row as the
 * statement found it (the engine reads the run next, and this saves it a round trip), or null.
 * With `settle` it answers the settling probe too (`probeSettle`, as of just after the update):
 * whether another task of the run is outstanding, and with `full` (an attempt that ends its
 * branch: the engine settles its run next) the run's tasks and arrivals when none is. That
 * saves the probe its own statement.
 */
export async function updateTask(
  db: Db,
  id: number,
  patch: Partial<Omit<TaskRecord, "id" | "run_id">>,
  guard: TaskGuard = {},
  settle: SettleRead = "none",
): Promise<Updated | null> {
  const { statement, values } = patchQuery(TASKS, id, owned(patch), guardOf(guard));
  const row = await first(db, withRun(statement, settle), values);
  return row && updatedOf(row, settle);
}

/** What an update answers, from its row (`withRun`'s), as `settle` asked. */
function updatedOf(row: Row, settle: SettleRead): Updated {
  const task = toTask(row);
  const updated = { task, run: toRun(row.run_row) };
  if (settle === "none") return updated;
  if (row.settle_found) return { ...updated, carried: { found: true } };
  if (settle === "found") return { ...updated, carried: { found: false } };
  // The others as the statement found them, and this one as it left it, in id order.
  const tasks = [...row.settle_tasks.map(toTask), task].sort((a, b) => a.id - b.id);
  const read = { tasks, arrivals: row.settle_arrivals.map(toArrival) };
  return { ...updated, carried: { found: false, read } };
}

/** An update's answer: the row, its run's row, and what it read of the settling probe. */
export type Updated = { task: TaskRecord; run: RunRecord; carried?: Carried };

/** A patch as it is written: a row made ready again is nobody's (its next claim names one). */
function owned<P extends Partial<TaskRecord>>(patch: P): P {
  return patch.status === "ready" ? { ...patch, owner: null } : patch;
}

/** Each column's type, for the arrays of an update of several tasks (`updateTasks`). */
const TASK_TYPES: Readonly<Record<string, string>> = {
  status: "text",
  node: "text",
  attempt: "integer",
  priority: "double precision",
  explicit: "boolean",
  created: "bigint",
  started: "bigint",
  finished: "bigint",
  error: "text",
  payload_present: "boolean",
  payload: "json",
  result: "json",
  result_present: "boolean",
  terminal: "boolean",
  branch: "json",
  lineage: "json",
  stats: "json",
  claim: "integer",
  token_hash: "text",
  used_s: "double precision",
  waiting_since: "bigint",
  error_stack: "text",
  not_before: "bigint",
  sleep_until: "bigint",
  sleeps: "json",
  owner: "text",
};

/** One update of several (`updateTasks`): the task, its patch and its guard. */
export type TaskPatch = Omit<TaskUpdate, "runId">;

/**
 * What makes updates one statement's (`updateTasks`): the fields they set and their guard's
 * form; null for one that cannot share (no field, or a guard on pool room).
 */
export function shapeOf({ patch, guard = {} }: TaskPatch): string | null {
  if (guard.room !== undefined) return null;
  const written = owned(patch) as Row;
  const fields = Object.keys(written).filter((k) => written[k] !== undefined);
  if (!fields.length || fields.some((f) => !(f in TASK_TYPES))) return null;
  const status = guard.status === undefined ? "-" : [...guard.status].join(" ");
  return `${fields.join(",")}|${status}|${guard.claim === undefined ? "" : "claim"}`;
}

const updateTasksTexts = new Map<string, Statement>();

/**
 * `updateTask` for several tasks of one shape (`shapeOf`), as one statement: each row is set
 * from its own values (arrays, one per field) where its own guard holds. Every row answers the
 * settling probe as its patch asks (`settleRead`): whether a task of its run is outstanding,
 * and the lists when it ended its branch. The rows' probes see the runs as they were before
 * the statement, which is what separate updates would see as long as no two rows share a run
 * (the writer keeps no read of a run that has several). Answers each task's update by id
 * (absent: its guard did not hold).
 */
export async function updateTasks(
  db: Db,
  list: readonly TaskPatch[],
): Promise<Map<number, Updated>> {
  const patches = list.map((u) => owned(u.patch) as Row);
  const fields = Object.keys(patches[0]).filter((k) => patches[0][k] !== undefined);
  const guard = list[0].guard ?? {};
  const values: unknown[] = [list.map((u) => u.id)];
  for (const f of fields) {
    const isJson = TASK_TYPES[f] === "json";
    values.push(patches.map((p) => (isJson ? json(p[f]) : p[f])));
  }
  if (guard.claim !== undefined) values.push(list.map((u) => u.guard!.claim));
  // Every update of the list has this shape (the caller grouped them by it).
  const key = shapeOf(list[0])!;
  let statement = updateTasksTexts.get(key);
  if (statement === undefined) {
    const arrayType = (f: string) => (TASK_TYPES[f] === "json" ? "text" : TASK_TYPES[f]);
    const params = ["$1::bigint[]", ...fields.map((f, i) => `$${i + 2}::${arrayType(f)}[]`)];
    const names = ["v_id", ...fields.map((f) => `v_${f}`)];
    if (guard.claim !== undefined) {
      params.push(`$${fields.length + 2}::integer[]`);
      names.push("v_claim");
    }
    const cast = (f: string) => (TASK_TYPES[f] === "json" ? "::json" : "");
    const sets = fields.map((f) => `${f} = v.v_${f}${cast(f)}`).join(", ");
    let conditions = "tasks.id = v.v_id";
    if (guard.status !== undefined) conditions += ` AND ${statusIn(guard.status, "tasks.status")}`;
    if (guard.claim !== undefined) conditions += " AND tasks.claim = v.v_claim";
    const update = sql(
      `UPDATE tasks SET ${sets} FROM unnest(${params.join(", ")}) AS v(${names.join(", ")})` +
        ` WHERE ${conditions} RETURNING tasks.*`,
    );
    statement = withRun(update, "row");
    updateTasksTexts.set(key, statement);
  }
  const answered = await rows(db, statement, values);
  const byId = new Map(list.map((u) => [u.id, u.patch]));
  const out = new Map<number, Updated>();
  for (const row of answered) {
    const id = Number(row.id);
    out.set(id, updatedOf(row, settleRead(byId.get(id)!)));
  }
  return out;
}

/**
 * What an update answers of the settling probe besides the task, by its patch: the attempt
 * ended its branch (or was dead-lettered), and the engine settles its run next; it went on to
 * other nodes, and the run is settled only when none was enqueued (a join still waiting, an
 * empty transition list), which asks whether anything is outstanding; or nothing.
 */
export function settleRead(patch: Partial<TaskRecord>): SettleRead {
  if (patch.terminal === true || patch.status === "dead_letter") return "full";
  if (patch.status === "done") return "found";
  return "none";
}

const withRunTexts = new Map<string, Statement>();

/** What `settleRead` calls "full", from the row an update left. */
const ENDED = "(u.terminal OR u.status = 'dead_letter')";

// What the settling probe reads, beside the task just updated (`u`): every CTE sees the rows
// as they were before the statement, so `u`'s own row is left out of the read and judged by
// what the update made of it.
const SETTLE_FOUND = `CROSS JOIN LATERAL (SELECT u.status IN ('ready', 'in_progress', 'waiting')
  OR EXISTS (
    SELECT 1 FROM tasks t WHERE t.run_id = u.run_id AND t.id <> u.id
      AND t.status IN ('ready', 'in_progress', 'waiting')
  ) AS settle_found) o`;
const SETTLE_LISTS = `
  CASE WHEN o.settle_found THEN NULL ELSE (
    SELECT COALESCE(json_agg(t ORDER BY t.id), '[]') FROM tasks t
    WHERE t.run_id = u.run_id AND t.id <> u.id
  ) END AS settle_tasks,
  CASE WHEN o.settle_found THEN NULL ELSE (
    SELECT COALESCE(json_agg(a ORDER BY a.fanout, a.branch_index, a.seq), '[]')
    FROM arrivals a WHERE a.run_id = u.run_id
  ) END AS settle_arrivals`;

/**
 * `UPDATE tasks ... RETURNING *` with the task's run as `run_row` (JSON) beside it, and what
 * `settle` asks of the settling probe.
 */
function withRun(update: Statement, settle: SettleRead | "row"): Statement {
  const key = `${settle}:${update.text}`;
  let statement = withRunTexts.get(key);
  if (statement === undefined) {
    const run = "(SELECT row_to_json(r) FROM runs r WHERE r.id = u.run_id) AS run_row";
    const probe = {
      none: "",
      found: ", o.settle_found",
      full: `, o.settle_found,${SETTLE_LISTS}`,
      // Each row as its own patch asks (`settleRead`, from what the row now holds).
      row: `, o.settle_found,${SETTLE_LISTS.replaceAll("o.settle_found", `(o.settle_found OR NOT ${ENDED})`)}`,
    };
    const from = settle === "none" ? "FROM u" : `FROM u ${SETTLE_FOUND}`;
    statement = sql(`WITH u AS (${update.text}) SELECT u.*, ${run}${probe[settle]} ${from}`);
    withRunTexts.set(key, statement);
  }
  return statement;
}
