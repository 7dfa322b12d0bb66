// Runs and the dispatch list. `position` is dense 1..n across all runs; every statement that
// adds, moves or removes a run keeps it so, which lets a move shift only the runs in between.
import type Database from "better-sqlite3";
import type { RunCount, RunFilter, RunRecord, RunSelection } from "../../engine/index.ts";
import { likeLiteral } from "../like-literal.ts";
import type { Row } from "./codec.ts";
import { runCodec } from "./columns.ts";
import { MultiRowInsert } from "./multi-row.ts";
import { PatchStatements } from "./patch.ts";
import { RecordQuery } from "./record-query.ts";

const GET_RUN = "SELECT * FROM runs WHERE id = ?";

// The run list is read whole (10,000 rows is ordinary), so it is read as arrays, which
// better-sqlite3 builds in half the time of objects, and decoded by position below.
const LIST_RUNS = `
SELECT id, workflow, title, description, status, position, created, updated, started, input
FROM runs WHERE (@status IS NULL OR status = @status) AND (@workflow IS NULL OR workflow = @workflow)
  AND (@title IS NULL OR title LIKE '%' || @title || '%' ESCAPE '\\') AND position > @after
ORDER BY position LIMIT @limit`;

// Bulk operations and retention: oldest first, keyset on (created, id). A scan of the runs table
// (no index on created): one a minute for retention, one per page of a bulk operation.
const SELECT_RUNS = `
SELECT id, workflow, title, description, status, position, created, updated, started, input
FROM runs WHERE (@statuses IS NULL OR status IN (SELECT value FROM json_each(@statuses)))
  AND (@workflow IS NULL OR workflow = @workflow)
  AND (@createdBefore IS NULL OR created < @createdBefore)
  AND (@updatedBefore IS NULL OR updated < @updatedBefore)
  AND (@afterCreated IS NULL OR created > @afterCreated OR (created = @afterCreated AND id > @afterId))
ORDER BY created, id LIMIT @limit`;

// A find (search, creation range, a time sort, several statuses) is built from the conditions it
// has, one statement per shape, prepared once. Time sorts are newest first with a keyset on
// (time, id), which the indexes of step 10 (`runs_created`, `runs_updated`) answer in order.
const COLUMNS =
  "id, workflow, title, description, status, position, created, updated, started, input";

interface FindShape {
  sql: string;
  params: Row;
}

function findShape(filter: RunFilter): FindShape {
  const conditions: string[] = [];
  const params: Row = {};
  const add = (condition: string, values: Row) => {
    conditions.push(condition);
    Object.assign(params, values);
  };
  if (filter.status !== undefined) add("status = @status", { status: filter.status });
  if (filter.statuses !== undefined) {
    add("status IN (SELECT value FROM json_each(@statuses))", {
      statuses: JSON.stringify(filter.statuses),
    });
  }
  if (filter.workflow !== undefined) add("workflow = @workflow", { workflow: filter.workflow });
  if (filter.title !== undefined) {
    add("title LIKE '%' || @title || '%' ESCAPE '\\'", { title: likeLiteral(filter.title) });
  }
  if (filter.search !== undefined) {
    add(
      "(title LIKE '%' || @search || '%' ESCAPE '\\' OR substr(id, 1, length(@prefix)) = @prefix)",
      { search: likeLiteral(filter.search), prefix: filter.search },
    );
  }
  if (filter.createdFrom !== undefined) add("created >= @from", { from: filter.createdFrom });
  if (filter.createdBefore !== undefined)
    add("created < @before", { before: filter.createdBefore });
  const sort = filter.sort ?? "position";
  let order = "position";
  if (sort === "position") {
    if (filter.after !== undefined) add("position > @after", { after: filter.after });
  } else {
    order = `${sort} DESC, id DESC`;
    if (filter.afterKey !== undefined) {
      add(`(${sort}, id) < (@afterAt, @afterId)`, {
        afterAt: filter.afterKey.at,
        afterId: filter.afterKey.id,
      });
    }
  }
  if (filter.limit !== undefined) params.limit = filter.limit;
  const where = conditions.length === 0 ? "" : `WHERE ${conditions.join(" AND ")}`;
  const limit = filter.limit === undefined ? "" : " LIMIT @limit";
  return { sql: `SELECT ${COLUMNS} FROM runs ${where} ORDER BY ${order}${limit}`, params };
}

/** Whether the filter asks for more than the dispatch list's own statement answers. */
function isFind(filter: RunFilter): boolean {
  return (
    filter.statuses !== undefined ||
    filter.search !== undefined ||
    filter.createdFrom !== undefined ||
    filter.createdBefore !== undefined ||
    (filter.sort !== undefined && filter.sort !== "position")
  );
}

const COUNT_RUNS = `SELECT status, workflow, count(*) AS count FROM runs GROUP BY status, workflow
ORDER BY status, workflow`;

function decodeListed(v: unknown[]): RunRecord {
  return {
    id: v[0] as string,
    workflow: v[1] as string,
    title: v[2] as string,
    description: v[3] as string,
    status: v[4] as RunRecord["status"],
    position: v[5] as number,
    created: v[6] as number,
    updated: v[7] as number,
    started: v[8] === 1,
    input: v[9] === null ? null : JSON.parse(v[9] as string),
  };
}

// A single insert takes its position in the INSERT and reads only that back (a submit is on the
// hot path): the rest of the record is the input as a read would decode it. A batch
// (`insertMany`) reads the list's end once and numbers its runs on from it, with one multi-row
// INSERT per chunk (multi-row.ts).
const INSERT_RUN = `
INSERT INTO runs (id, workflow, title, description, status, created, updated, started, input,
  position)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, (SELECT COALESCE(MAX(position), 0) + 1 FROM runs))
RETURNING position`;

// Both bind the values of every column but the position (the single INSERT takes it in the
// statement, the batch binds it last), and build the record from them without a row object.
const RUN_COLUMNS = [
  "id",
  "workflow",
  "title",
  "description",
  "status",
  "created",
  "updated",
  "started",
  "input",
];
const INSERTION = runCodec.insertion(RUN_COLUMNS, "position");
const NO_REST = {};
const NO_PARAMS = {};

const LAST_POSITION = "SELECT COALESCE(MAX(position), 0) AS n FROM runs";

// Moving from `src` to `dst` shifts the runs in between by one towards the gap it leaves.
// (PostgreSQL: LEAST/GREATEST instead of the two-argument MIN/MAX.)
const MOVE_RUN = `
UPDATE runs SET position = CASE
  WHEN id = @id THEN @dst
  WHEN @dst < @src THEN position + 1
  ELSE position - 1 END
WHERE position BETWEEN MIN(@src, @dst) AND MAX(@src, @dst)`;

const TOUCH_RUN = "UPDATE runs SET updated = ? WHERE id = ?";

const CLOSE_GAP = "UPDATE runs SET position = position - 1 WHERE position > ?";
// After deleting many runs: the list from the first gap on, numbered densely again in one pass.
const RENUMBER_FROM = `
UPDATE runs SET position = r.rn + @from - 1
FROM (SELECT id, row_number() OVER (ORDER BY position) AS rn FROM runs WHERE position >= @from) AS r
WHERE runs.id = r.id AND runs.position <> r.rn + @from - 1`;

// Children first: the foreign keys refuse a run or task that still has rows under it.
const DELETE_RUN_STATEMENTS = [
  "DELETE FROM chunks WHERE task_id IN (SELECT id FROM tasks WHERE run_id = ?)",
  "DELETE FROM submissions WHERE task_id IN (SELECT id FROM tasks WHERE run_id = ?)",
  "DELETE FROM requests WHERE run_id = ?",
  "DELETE FROM arrivals WHERE run_id = ?",
  "DELETE FROM log WHERE run_id = ?",
  "DELETE FROM tasks WHERE run_id = ?",
  "DELETE FROM events WHERE run_id = ?",
  "DELETE FROM idempotency_keys WHERE run_id = ?",
];
const DELETE_RUN_ROW = "DELETE FROM runs WHERE id = ?";

export function runReads(db: Database.Database) {
  const get = new RecordQuery(db, GET_RUN, runCodec);
  const list = db.prepare<[Row], unknown[]>(LIST_RUNS).raw();
  const count = db.prepare<[], RunCount>(COUNT_RUNS);
  const select = db.prepare<[Row], unknown[]>(SELECT_RUNS).raw();
  const finds = new Map<string, Database.Statement<[Row], unknown[]>>();
  const find = (filter: RunFilter): RunRecord[] => {
    const shape = findShape(filter);
    let statement = finds.get(shape.sql);
    if (statement === undefined) {
      statement = db.prepare<[Row], unknown[]>(shape.sql).raw();
      finds.set(shape.sql, statement);
    }
    return statement.all(shape.params).map(decodeListed);
  };
  return {
    get: (id: string): RunRecord | null => get.get(id),
    list: (filter: RunFilter = {}): RunRecord[] =>
      isFind(filter)
        ? find(filter)
        : list
            .all({
              status: filter.status ?? null,
              workflow: filter.workflow ?? null,
              title: filter.title === undefined ? null : likeLiteral(filter.title),
              after: filter.after ?? 0,
              limit: filter.limit ?? -1,
            })
            .map(decodeListed),
    count: (): RunCount[] => count.all(),
    select: (q: RunSelection): RunRecord[] =>
      select
        .all({
          statuses: q.statuses === undefined ? null : JSON.stringify(q.statuses),
          workflow: q.workflow ?? null,
          createdBefore: q.createdBefore ?? null,
          updatedBefore: q.updatedBefore ?? null,
          afterCreated: q.after?.created ?? null,
          afterId: q.after?.id ?? "",
          limit: q.limit,
        })
        .map(decodeListed),
  };
}

export function runWrites(db: Database.Database) {
  const get = new RecordQuery(db, GET_RUN, runCodec);
  const insert = db.prepare<unknown[], number>(INSERT_RUN).pluck();
  const insertMany = new MultiRowInsert(db, "runs", [...RUN_COLUMNS, "position"]);
  const lastPosition = db.prepare<[], { n: number }>(LAST_POSITION);
  const move = db.prepare<[Row]>(MOVE_RUN);
  const closeGap = db.prepare<[number]>(CLOSE_GAP);
  const touch = db.prepare<[number, string]>(TOUCH_RUN);
  const deletes = [...DELETE_RUN_STATEMENTS, DELETE_RUN_ROW].map((sql) =>
    db.prepare<[string]>(sql),
  );
  const renumber = db.prepare<[Row]>(RENUMBER_FROM);
  const patch = new PatchStatements(db, {
    table: "runs",
    codec: runCodec,
    fixed: ["id", "position"],
  });

  const mustGet = (id: string): RunRecord => {
    const run = get.get(id);
    if (run === null) throw new Error(`run ${id} not found`);
    return run;
  };

  return {
    insert(run: Omit<RunRecord, "position">): RunRecord {
      const values = INSERTION.encode(run);
      return INSERTION.stored(values, insert.get(values)!, NO_REST);
    },
    /** `insert` for each of `runs`, in order, at consecutive positions after the list's end. */
    insertMany(runs: ReadonlyArray<Omit<RunRecord, "position">>): RunRecord[] {
      const last = lastPosition.get()!.n;
      const rows = runs.map((run, i) => {
        const values = INSERTION.encode(run);
        values.push(last + i + 1);
        return values;
      });
      insertMany.run(rows);
      return rows.map((values) => INSERTION.stored(values, values[RUN_COLUMNS.length], NO_REST));
    },
    /** `known`: the row as it stands, when the caller holds it; then it is not read back. */
    update(
      id: string,
      fields: Partial<Omit<RunRecord, "id" | "position">>,
      known?: RunRecord,
    ): RunRecord {
      if (known !== undefined) {
        const changed = patch.over(id, fields, "", NO_PARAMS, known);
        if (changed === null) throw new Error(`run ${id} not found`);
        return changed;
      }
      const run = patch.run(id, fields, "", {});
      if (run === null) throw new Error(`run ${id} not found`);
      return run;
    },
    touch(id: string, now: number): void {
      touch.run(now, id);
    },
    move(id: string, index: number): RunRecord {
      if (Number.isNaN(index)) throw new RangeError("moveRun: index is NaN");
      const src = mustGet(id).position;
      const n = lastPosition.get()!.n;
      const dst = Math.min(Math.max(Math.trunc(index), 0), n - 1) + 1;
      if (dst !== src) move.run({ id, src, dst });
      return mustGet(id);
    },
    remove(id: string): void {
      const run = get.get(id);
      if (run === null) return;
      for (const statement of deletes) statement.run(id);
      closeGap.run(run.position);
    },
    removeMany(ids: readonly string[]): void {
      let from = Number.POSITIVE_INFINITY;
      for (const id of ids) {
        const run = get.get(id);
        if (run === null) continue;
        for (const statement of deletes) statement.run(id);
        from = Math.min(from, run.position);
      }
      if (from !== Number.POSITIVE_INFINITY) renumber.run({ from });
    },
  };
}

export type RunReads = ReturnType<typeof runReads>;
export type RunWrites = ReturnType<typeof runWrites>;
