// Runs and the dispatch list. `position` is dense 1..n across all runs; every statement that
// adds, moves or removes a run keeps it so (a move shifts only the runs in between). Servers
// sharing a schema change it one at a time, and MAX(position) + 1 is read after the previous
// change committed, because every transaction holds the schema's write lock (transaction.ts).
import type { RunCount, RunFilter, RunRecord, RunSelection } from "../../engine/index.ts";
import { likeLiteral } from "../like-literal.ts";
import type { Deferred } from "./deferred.ts";
import { type PatchTable, patchQuery } from "./patch.ts";
import { toRun } from "./rows.ts";
import { columnArrays, type Db, first, json, rows, sql, where } from "./sql.ts";

const GET_RUN = sql("SELECT * FROM runs WHERE id = $1");
const LAST_POSITION = sql("SELECT COALESCE(MAX(position), 0) AS n FROM runs");
// The position is the writer's (batch-ids.ts): the next one after the list's end, which the
// statement checks (a wrong one is NULL, refused), so nothing needs to come back.
const INSERT_RUN = `
INSERT INTO runs (id, workflow, title, description, status, position, created, updated, started,
  input)
VALUES ($1, $2, $3, $4, $5,
  CASE WHEN (SELECT COALESCE(MAX(position), 0) FROM runs) = $10::integer - 1 THEN $10::integer END,
  $6, $7, $8, $9)`;

// A batch: one statement, arrays in, positions counted on from $10 in array order.
const INSERT_RUNS = `
INSERT INTO runs (id, workflow, title, description, status, position, created, updated, started,
  input)
SELECT r.id, r.workflow, r.title, r.description, r.status,
  CASE WHEN (SELECT COALESCE(MAX(position), 0) FROM runs) = $10::integer - 1
    THEN ($10::integer + r.ord - 1)::integer END,
  r.created, r.updated, r.started, r.input::json
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[],
  $7::bigint[], $8::boolean[], $9::text[])
  WITH ORDINALITY AS r(id, workflow, title, description, status, created, updated, started,
    input, ord)`;

// Moving from $2 to $3 shifts the runs in between by one towards the gap it leaves.
const MOVE_RUN = sql(`
UPDATE runs SET position = CASE
  WHEN id = $1 THEN $3::integer
  WHEN $3::integer < $2::integer THEN position + 1
  ELSE position - 1 END
WHERE position BETWEEN LEAST($2::integer, $3::integer) AND GREATEST($2::integer, $3::integer)`);
const CLOSE_GAP = sql("UPDATE runs SET position = position - 1 WHERE position > $1");

// Children first: the foreign keys refuse a run or task that still has rows under it.
const DELETE_RUN = [
  "DELETE FROM chunks WHERE task_id IN (SELECT id FROM tasks WHERE run_id = $1)",
  "DELETE FROM submissions WHERE task_id IN (SELECT id FROM tasks WHERE run_id = $1)",
  "DELETE FROM requests WHERE run_id = $1",
  "DELETE FROM arrivals WHERE run_id = $1",
  "DELETE FROM log WHERE run_id = $1",
  "DELETE FROM tasks WHERE run_id = $1",
  "DELETE FROM events WHERE run_id = $1",
  "DELETE FROM idempotency_keys WHERE run_id = $1",
].map(sql);
const DELETE_RUN_ROW = sql("DELETE FROM runs WHERE id = $1 RETURNING position");
// After deleting many runs: the list from the first gap on, numbered densely again in one
// statement (the unique position is checked at its end).
const RENUMBER_FROM = sql(`
UPDATE runs SET position = r.rn + $1::integer - 1
FROM (SELECT id, row_number() OVER (ORDER BY position) AS rn FROM runs WHERE position >= $1::integer) AS r
WHERE runs.id = r.id AND runs.position <> r.rn + $1::integer - 1`);

const RUNS: PatchTable = {
  table: "runs",
  columns: ["status", "workflow", "title", "description", "created", "updated", "started"],
  json: [],
};

export async function getRun(db: Db, id: string): Promise<RunRecord | null> {
  const row = await first(db, GET_RUN, [id]);
  return row && toRun(row);
}

export async function listRuns(db: Db, filter: RunFilter = {}): Promise<RunRecord[]> {
  const conditions: string[] = [];
  const values: unknown[] = [];
  if (filter.status !== undefined) {
    values.push(filter.status);
    conditions.push(`status = $${values.length}`);
  }
  if (filter.workflow !== undefined) {
    values.push(filter.workflow);
    conditions.push(`workflow = $${values.length}`);
  }
  if (filter.title !== undefined) {
    values.push(`%${likeLiteral(filter.title)}%`);
    conditions.push(`title ILIKE $${values.length}`);
  }
  if (filter.statuses !== undefined) {
    values.push([...filter.statuses]);
    conditions.push(`status = ANY($${values.length}::text[])`);
  }
  if (filter.search !== undefined) {
    values.push(`%${likeLiteral(filter.search)}%`, filter.search);
    const n = values.length;
    conditions.push(`(title ILIKE $${n - 1} OR left(id, length($${n}::text)) = $${n}::text)`);
  }
  if (filter.createdFrom !== undefined) {
    values.push(filter.createdFrom);
    conditions.push(`created >= $${values.length}`);
  }
  if (filter.createdBefore !== undefined) {
    values.push(filter.createdBefore);
    conditions.push(`created < $${values.length}`);
  }
  // Time sorts: newest first, keyset on (time, id), answered in order by the indexes of step 9.
  const sort = filter.sort ?? "position";
  let order = "position";
  if (sort === "position") {
    if (filter.after !== undefined) {
      values.push(filter.after);
      conditions.push(`position > $${values.length}`);
    }
  } else {
    order = `${sort} DESC, id DESC`;
    if (filter.afterKey !== undefined) {
      values.push(filter.afterKey.at, filter.afterKey.id);
      const n = values.length;
      conditions.push(`(${sort}, id) < ($${n - 1}::bigint, $${n}::text)`);
    }
  }
  let limit = "";
  if (filter.limit !== undefined) {
    values.push(filter.limit);
    limit = ` LIMIT $${values.length}`;
  }
  const statement = sql(`SELECT * FROM runs ${where(conditions)} ORDER BY ${order}${limit}`);
  return (await rows(db, statement, values)).map(toRun);
}

// Bulk operations and retention: oldest first, keyset on (created, id).
const SELECT_RUNS = sql(`SELECT * FROM runs
WHERE ($1::text[] IS NULL OR status = ANY($1::text[]))
  AND ($2::text IS NULL OR workflow = $2::text)
  AND ($3::bigint IS NULL OR created < $3::bigint)
  AND ($4::bigint IS NULL OR updated < $4::bigint)
  AND ($5::bigint IS NULL OR (created, id) > ($5::bigint, $6::text))
ORDER BY created, id LIMIT $7`);

export async function selectRuns(db: Db, q: RunSelection): Promise<RunRecord[]> {
  const values = [
    q.statuses === undefined ? null : [...q.statuses],
    q.workflow ?? null,
    q.createdBefore ?? null,
    q.updatedBefore ?? null,
    q.after?.created ?? null,
    q.after?.id ?? "",
    q.limit,
  ];
  return (await rows(db, SELECT_RUNS, values)).map(toRun);
}

const COUNT_RUNS = sql(`SELECT status, workflow, count(*)::integer AS count FROM runs
GROUP BY status, workflow ORDER BY status, workflow`);

export async function countRunsByStatus(db: Db): Promise<RunCount[]> {
  return (await rows(db, COUNT_RUNS)) as unknown as RunCount[];
}

type NewRun = Omit<RunRecord, "position">;

/** A new run's values, in the column order of INSERT_RUN and INSERT_RUNS. */
const RUN_VALUES: ReadonlyArray<(r: NewRun) => unknown> = [
  (r) => r.id,
  (r) => r.workflow,
  (r) => r.title,
  (r) => r.description,
  (r) => r.status,
  (r) => r.created,
  (r) => r.updated,
  (r) => r.started,
  // SQL NULL when none was given, so a run without input stores nothing.
  (r) => (r.input == null ? null : json(r.input)),
];

/** The row a new run is stored as, as a read answers it (its input through its JSON text). */
function newRun(run: NewRun, position: number, input: unknown): RunRecord {
  return toRun({ ...run, position, input: input === null ? null : JSON.parse(input as string) });
}

/** Held (deferred.ts): storing `run` at `position` (the list's end), and the row it stores. */
export function runInsert(run: NewRun, position: number): { write: Deferred; row: RunRecord } {
  const values = RUN_VALUES.map((value) => value(run));
  const write = { table: "runs" as const, text: INSERT_RUN, values: [...values, position] };
  return { write: held(write, [run], position), row: newRun(run, position, values[8]) };
}

/** Held: storing `list` at `first`, `first + 1` ... in order, and the rows it stores. */
export function runsInsert(
  list: readonly NewRun[],
  first: number,
): { write: Deferred; rows: RunRecord[] } {
  const columns = columnArrays(list, RUN_VALUES);
  return {
    write: runsWrite(list, first, columns),
    rows: list.map((run, i) => newRun(run, first + i, columns[8][i])),
  };
}

/** The held insert of `list` at `first` (`columns`: its values, column by column). */
function runsWrite(
  list: readonly NewRun[],
  first: number,
  columns = columnArrays(list, RUN_VALUES),
) {
  return held({ table: "runs", text: INSERT_RUNS, values: [...columns, first] }, list, first);
}

/** What a held insert of runs stores: `list` at `first`, `first + 1` ... */
const heldRuns = new WeakMap<Deferred, { list: readonly NewRun[]; first: number }>();

/**
 * The held insert of `list` at `first`: it names its runs, and joins the next insert held (the
 * next submit of a shared unit) into one when that one's runs go right after its own.
 */
function held(
  write: Pick<Deferred, "table" | "text" | "values">,
  list: readonly NewRun[],
  first: number,
): Deferred {
  const out: Deferred = {
    ...write,
    inserts: list.map((run) => run.id),
    merge(next) {
      const after = heldRuns.get(next);
      if (after === undefined || after.first !== first + list.length) return null;
      return runsWrite([...list, ...after.list], first);
    },
  };
  heldRuns.set(out, { list, first });
  return out;
}

export async function updateRun(
  db: Db,
  id: string,
  patch: Partial<Omit<RunRecord, "id" | "position">>,
): Promise<RunRecord> {
  const { statement, values } = patchQuery(RUNS, id, patch);
  const row = await first(db, statement, values);
  if (row === null) throw new Error(`run ${id} not found`);
  return toRun(row);
}

/** `known` (a row as the database holds it) with `patch` applied, as RETURNING * gives it. */
export function patched(
  known: RunRecord,
  patch: Partial<Omit<RunRecord, "id" | "position">>,
): RunRecord {
  const row: RunRecord = { ...known };
  for (const [name, value] of Object.entries(patch)) {
    if (value !== undefined) Object.assign(row, { [name]: value });
  }
  return row;
}

/**
 * `updateRun` of a row the caller knows as the database holds it (the batch's run cache): the
 * UPDATE is sent without waiting (`Db.write`: a failure fails the unit), the row answered is the
 * known one with the patch applied.
 */
export async function updateCachedRun(
  db: Db,
  known: RunRecord,
  patch: Partial<Omit<RunRecord, "id" | "position">>,
): Promise<RunRecord> {
  const { statement, values } = patchQuery(RUNS, known.id, patch, undefined, false);
  await db.write(statement, values);
  return patched(known, patch);
}

export async function moveRun(db: Db, id: string, index: number): Promise<RunRecord> {
  if (Number.isNaN(index)) throw new RangeError("moveRun: index is NaN");
  const run = await getRun(db, id);
  if (run === null) throw new Error(`run ${id} not found`);
  const n = (await first(db, LAST_POSITION))!.n as number;
  const dst = Math.min(Math.max(Math.trunc(index), 0), n - 1) + 1;
  if (dst === run.position) return run;
  await db.run(MOVE_RUN, [id, run.position, dst]);
  return { ...run, position: dst };
}

/** Deletes the run and what hangs off it; answers how many runs left the list (0 or 1). */
export async function deleteRun(db: Db, id: string): Promise<number> {
  for (const statement of DELETE_RUN) await db.run(statement, [id]);
  const gone = await first(db, DELETE_RUN_ROW, [id]);
  if (gone === null) return 0;
  await db.run(CLOSE_GAP, [gone.position]);
  return 1;
}

// The same deletes over a set of runs: one statement per table, not one per table and run.
const DELETE_RUNS = DELETE_RUN.map(({ text }) =>
  sql(text.replaceAll("run_id = $1", "run_id = ANY($1::text[])")),
);
const DELETE_RUN_ROWS = sql("DELETE FROM runs WHERE id = ANY($1::text[]) RETURNING position");

/** `deleteRun` of each; answers how many runs left the list. */
export async function deleteRuns(db: Db, ids: readonly string[]): Promise<number> {
  if (!ids.length) return 0;
  const list = [...ids];
  for (const statement of DELETE_RUNS) await db.run(statement, [list]);
  const gone = await rows(db, DELETE_RUN_ROWS, [list]);
  if (!gone.length) return 0;
  const from = Math.min(...gone.map((r) => r.position as number));
  await db.run(RENUMBER_FROM, [from]);
  return gone.length;
}
