// Schedules and their fires (schema step 7).
import type Database from "better-sqlite3";
import type { ScheduleFireRecord, ScheduleRecord } from "../../engine/index.ts";

const COLUMNS =
  "name, workflow, cron, timezone, title, input, enabled, catchup, source, created, updated";
const LIST = `SELECT ${COLUMNS} FROM schedules ORDER BY name`;
const GET = `SELECT ${COLUMNS} FROM schedules WHERE name = ?`;
const LAST_FIRE = `SELECT schedule, scheduled_at, run_id, fired_at FROM schedule_fires
WHERE schedule = ? ORDER BY scheduled_at DESC LIMIT 1`;
const PUT = `INSERT OR REPLACE INTO schedules (${COLUMNS})
VALUES (@name, @workflow, @cron, @timezone, @title, @input, @enabled, @catchup, @source,
  @created, @updated)`;
const DELETE = "DELETE FROM schedules WHERE name = ?";
const DELETE_FIRES = "DELETE FROM schedule_fires WHERE schedule = ?";
const INSERT_FIRE = `INSERT INTO schedule_fires (schedule, scheduled_at, run_id, fired_at)
VALUES (@schedule, @scheduled_at, @run_id, @fired_at) ON CONFLICT DO NOTHING`;

type Row = Record<string, unknown>;

function decode(r: Row): ScheduleRecord {
  return {
    ...(r as unknown as ScheduleRecord),
    input: r.input === null ? null : JSON.parse(r.input as string),
    enabled: r.enabled === 1,
  };
}

export function scheduleReads(db: Database.Database) {
  const list = db.prepare<[], Row>(LIST);
  const get = db.prepare<[string], Row>(GET);
  const last = db.prepare<[string], ScheduleFireRecord>(LAST_FIRE);
  return {
    list: (): ScheduleRecord[] => list.all().map(decode),
    get: (name: string): ScheduleRecord | null => {
      const row = get.get(name);
      return row ? decode(row) : null;
    },
    lastFire: (name: string): ScheduleFireRecord | null => last.get(name) ?? null,
  };
}

export function scheduleWrites(db: Database.Database) {
  const put = db.prepare<[Row]>(PUT);
  const remove = db.prepare<[string]>(DELETE);
  const removeFires = db.prepare<[string]>(DELETE_FIRES);
  const fire = db.prepare<[Row]>(INSERT_FIRE);
  return {
    put(s: ScheduleRecord): void {
      put.run({
        ...s,
        input: s.input === null ? null : JSON.stringify(s.input),
        enabled: s.enabled ? 1 : 0,
      });
    },
    remove(name: string): void {
      remove.run(name);
      removeFires.run(name);
    },
    fire: (f: ScheduleFireRecord): boolean => fire.run({ ...f }).changes === 1,
  };
}
