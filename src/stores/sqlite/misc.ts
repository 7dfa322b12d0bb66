// Join arrivals and workflow registrations: small tables with simple access.
import type Database from "better-sqlite3";
import type { ArrivalRecord, ArrivalTally, RegistrationRecord } from "../../engine/index.ts";
import { encodeValue, type Row } from "./codec.ts";
import { registrationCodec } from "./columns.ts";
import { RecordQuery } from "./record-query.ts";

// `join` and `index` are SQL keywords, hence the column names join_name and branch_index.
const INSERT_ARRIVAL = `
INSERT INTO arrivals (run_id, join_name, fanout, branch_index, count, task_id, key, value, join_task)
VALUES (@run_id, @join, @fanout, @index, @count, @task_id, @key, @value, @join_task)`;

const LIST_ARRIVALS = `
SELECT * FROM arrivals
WHERE run_id = @run_id AND (@join IS NULL OR join_name = @join)
  AND (@fanout IS NULL OR fanout = @fanout)
ORDER BY fanout, branch_index, seq`;

// Answered from arrivals_run without reading the stored keys and values.
const TALLY_ARRIVALS = `
SELECT COUNT(*) AS arrived,
  COALESCE(MAX(branch_index = @index), 0) AS index_arrived,
  COALESCE(MAX(join_task IS NOT NULL), 0) AS joined
FROM arrivals WHERE run_id = @run_id AND join_name = @join AND fanout = @fanout`;

const SET_JOIN_TASK = `
UPDATE arrivals SET join_task = @task_id
WHERE run_id = @run_id AND join_name = @join AND fanout = @fanout`;

// A replaced registration keeps its seq (the manifest order); a new one goes last.
const PUT_REGISTRATION = `
INSERT INTO registrations (workflow, target, pool, seq)
VALUES (@workflow, @target, @pool, (SELECT COALESCE(MAX(seq), 0) + 1 FROM registrations))
ON CONFLICT (workflow) DO UPDATE SET target = excluded.target, pool = excluded.pool
RETURNING *`;

const ANY_ARRIVAL = "SELECT EXISTS (SELECT 1 FROM arrivals)";

const LIST_REGISTRATIONS = "SELECT * FROM registrations ORDER BY seq";

const DELETE_REGISTRATION = "DELETE FROM registrations WHERE workflow = ?";

function decodeArrival(row: Row): ArrivalRecord {
  return {
    run_id: row.run_id as string,
    join: row.join_name as string,
    fanout: row.fanout as number,
    index: row.branch_index as number,
    count: row.count as number,
    task_id: row.task_id as number,
    key: JSON.parse(row.key as string),
    value: JSON.parse(row.value as string),
    join_task: row.join_task as number | null,
  };
}

export function miscReads(db: Database.Database) {
  const arrivals = db.prepare<[Row], Row>(LIST_ARRIVALS);
  const registrations = new RecordQuery(db, LIST_REGISTRATIONS, registrationCodec);
  const tally = db.prepare<[Row], Row>(TALLY_ARRIVALS);
  return {
    tallyArrivals(runId: string, join: string, fanout: number, index: number): ArrivalTally {
      const row = tally.get({ run_id: runId, join, fanout, index })!;
      return {
        arrived: row.arrived as number,
        indexArrived: row.index_arrived === 1,
        joined: row.joined === 1,
      };
    },
    listArrivals: (runId: string, join?: string, fanout?: number): ArrivalRecord[] =>
      arrivals
        .all({ run_id: runId, join: join ?? null, fanout: fanout ?? null })
        .map(decodeArrival),
    listRegistrations: (): RegistrationRecord[] => registrations.all(),
  };
}

export function miscWrites(db: Database.Database) {
  const insertArrival = db.prepare<[Row]>(INSERT_ARRIVAL);
  const anyArrival = db.prepare<[], number>(ANY_ARRIVAL).pluck();
  // Whether the table holds an arrival at all, read on first use and set by the writer's own
  // inserts: a store whose workflows never join (no arrival ever) settles a run without
  // reading its arrivals. Deletes leave it true; a rolled-back unit forgets it (`drop`).
  let arrivals: boolean | null = null;
  const setJoinTask = db.prepare<[Row]>(SET_JOIN_TASK);
  const put = new RecordQuery(db, PUT_REGISTRATION, registrationCodec);
  const remove = db.prepare<[string]>(DELETE_REGISTRATION);
  return {
    /** Whether any arrival may be stored (false: none is). */
    anyArrival: (): boolean => (arrivals ??= anyArrival.get() === 1),
    drop(): void {
      arrivals = null;
    },
    insertArrival(arrival: ArrivalRecord): void {
      arrivals = true;
      insertArrival.run({
        ...arrival,
        key: encodeValue("json", arrival.key),
        value: encodeValue("json", arrival.value),
        join_task: arrival.join_task ?? null,
      });
    },
    setJoinTask(runId: string, join: string, fanout: number, taskId: number): void {
      setJoinTask.run({ run_id: runId, join, fanout, task_id: taskId });
    },
    putRegistration: (reg: Omit<RegistrationRecord, "seq">): RegistrationRecord =>
      put.get(registrationCodec.encodeAll(reg))!,
    deleteRegistration(workflow: string): void {
      remove.run(workflow);
    },
  };
}

export type MiscReads = ReturnType<typeof miscReads>;
export type MiscWrites = ReturnType<typeof miscWrites>;
