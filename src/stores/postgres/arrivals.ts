// Join arrivals and workflow registrations: small tables with simple access.
import type { ArrivalRecord, ArrivalTally, RegistrationRecord } from "../../engine/index.ts";
import type { Deferred } from "./deferred.ts";
import { toArrival, toRegistration } from "./rows.ts";
import { type Db, first, json, rows, sql, where } from "./sql.ts";

// `join` and `index` are SQL keywords, hence the column names join_name and branch_index.
const INSERT_ARRIVAL = `
INSERT INTO arrivals (run_id, join_name, fanout, branch_index, count, task_id, key, value,
  join_task)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;

// Answered from arrivals_run without reading the stored keys and values.
const TALLY = sql(`
SELECT COUNT(*) AS arrived,
  COALESCE(bool_or(branch_index = $4), false) AS index_arrived,
  COALESCE(bool_or(join_task IS NOT NULL), false) AS joined
FROM arrivals WHERE run_id = $1 AND join_name = $2 AND fanout = $3`);

const SET_JOIN_TASK = sql(`
UPDATE arrivals SET join_task = $4 WHERE run_id = $1 AND join_name = $2 AND fanout = $3`);

// A replaced registration keeps its seq (the manifest order); a new one takes the next value of
// the identity, so it goes last.
const PUT_REGISTRATION = sql(`
INSERT INTO registrations (workflow, target, pool) VALUES ($1, $2, $3)
ON CONFLICT (workflow) DO UPDATE SET target = excluded.target, pool = excluded.pool
RETURNING *`);
const LIST_REGISTRATIONS = sql("SELECT * FROM registrations ORDER BY seq");
const DELETE_REGISTRATION = sql("DELETE FROM registrations WHERE workflow = $1");

/** The insert of `a`, held by the writer (deferred.ts): nothing comes back. */
export function arrivalWrite(a: ArrivalRecord): Deferred {
  const { run_id, join, fanout, index, count, task_id } = a;
  const values = [run_id, join, fanout, index, count, task_id, json(a.key), json(a.value)];
  return { table: "arrivals", text: INSERT_ARRIVAL, values: [...values, a.join_task ?? null] };
}

export async function setJoinTask(
  db: Db,
  runId: string,
  join: string,
  fanout: number,
  taskId: number,
): Promise<void> {
  await db.write(SET_JOIN_TASK, [runId, join, fanout, taskId]);
}

export async function listArrivals(
  db: Db,
  runId: string,
  join?: string,
  fanout?: number,
): Promise<ArrivalRecord[]> {
  const values: unknown[] = [runId];
  const conditions = ["run_id = $1"];
  if (join !== undefined) {
    values.push(join);
    conditions.push(`join_name = $${values.length}`);
  }
  if (fanout !== undefined) {
    values.push(fanout);
    conditions.push(`fanout = $${values.length}`);
  }
  const text = `SELECT * FROM arrivals ${where(conditions)} ORDER BY fanout, branch_index, seq`;
  return (await rows(db, sql(text), values)).map(toArrival);
}

export async function tallyArrivals(
  db: Db,
  runId: string,
  join: string,
  fanout: number,
  index: number,
): Promise<ArrivalTally> {
  const row = (await first(db, TALLY, [runId, join, fanout, index]))!;
  return { arrived: row.arrived, indexArrived: row.index_arrived, joined: row.joined };
}

export async function putRegistration(
  db: Db,
  reg: Omit<RegistrationRecord, "seq">,
): Promise<RegistrationRecord> {
  const row = await first(db, PUT_REGISTRATION, [reg.workflow, reg.target ?? null, reg.pool]);
  return toRegistration(row!);
}

export async function listRegistrations(db: Db): Promise<RegistrationRecord[]> {
  return (await rows(db, LIST_REGISTRATIONS)).map(toRegistration);
}

export async function deleteRegistration(db: Db, workflow: string): Promise<void> {
  await db.run(DELETE_REGISTRATION, [workflow]);
}
