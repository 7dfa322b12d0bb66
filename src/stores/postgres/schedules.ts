// Schedules and their fires (schema step 6).
import type { ScheduleFireRecord, ScheduleRecord } from "../../engine/index.ts";
import { type Db, first, type Row, rows, sql } from "./sql.ts";

const COLUMNS =
  "name, workflow, cron, timezone, title, input, enabled, catchup, source, created, updated";
const LIST = sql(`SELECT ${COLUMNS} FROM schedules ORDER BY name`);
const GET = sql(`SELECT ${COLUMNS} FROM schedules WHERE name = $1`);
const LAST_FIRE = sql(`SELECT schedule, scheduled_at, run_id, fired_at FROM schedule_fires
WHERE schedule = $1 ORDER BY scheduled_at DESC LIMIT 1`);
const PUT = sql(`INSERT INTO schedules (${COLUMNS})
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
ON CONFLICT (name) DO UPDATE SET workflow = excluded.workflow, cron = excluded.cron,
  timezone = excluded.timezone, title = excluded.title, input = excluded.input,
  enabled = excluded.enabled, catchup = excluded.catchup, source = excluded.source,
  created = excluded.created, updated = excluded.updated`);
const DELETE = sql("DELETE FROM schedules WHERE name = $1");
const DELETE_FIRES = sql("DELETE FROM schedule_fires WHERE schedule = $1");
const INSERT_FIRE = sql(`INSERT INTO schedule_fires (schedule, scheduled_at, run_id, fired_at)
VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING schedule`);

function toSchedule(r: Row): ScheduleRecord {
  return { ...(r as ScheduleRecord), created: Number(r.created), updated: Number(r.updated) };
}

export async function listSchedules(db: Db): Promise<ScheduleRecord[]> {
  return (await rows(db, LIST)).map(toSchedule);
}

export async function getSchedule(db: Db, name: string): Promise<ScheduleRecord | null> {
  const row = await first(db, GET, [name]);
  return row === null ? null : toSchedule(row);
}

export async function lastScheduleFire(db: Db, name: string): Promise<ScheduleFireRecord | null> {
  const r = await first(db, LAST_FIRE, [name]);
  if (r === null) return null;
  return {
    schedule: r.schedule,
    scheduled_at: Number(r.scheduled_at),
    run_id: r.run_id,
    fired_at: Number(r.fired_at),
  };
}

export async function putSchedule(db: Db, s: ScheduleRecord): Promise<void> {
  const input = s.input === null ? null : JSON.stringify(s.input);
  await db.run(PUT, [
    s.name,
    s.workflow,
    s.cron,
    s.timezone,
    s.title,
    input,
    s.enabled,
    s.catchup,
    s.source,
    s.created,
    s.updated,
  ]);
}

export async function deleteSchedule(db: Db, name: string): Promise<void> {
  await db.run(DELETE, [name]);
  await db.run(DELETE_FIRES, [name]);
}

export async function insertScheduleFire(db: Db, f: ScheduleFireRecord): Promise<boolean> {
  const values = [f.schedule, f.scheduled_at, f.run_id, f.fired_at];
  return (await db.run(INSERT_FIRE, values)).count === 1;
}
