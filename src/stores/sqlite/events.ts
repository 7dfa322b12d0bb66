// Stored events. Ids come from AUTOINCREMENT, so they only grow, even after a run's events are
// deleted: a client's `after` cursor never skips a new event.
import type Database from "better-sqlite3";
import type { EventRecord, NewEvent } from "../../engine/domain.ts";
import type { EventQuery } from "../../engine/store.ts";
import type { Row } from "./codec.ts";
import { eventCodec } from "./columns.ts";

const INSERT_EVENT = `
INSERT INTO events (name, run_id, task_id, data, created)
VALUES (@name, @run_id, @task_id, @data, @created)
RETURNING *`;

// Two shapes so the run filter can use `events_run`. LIMIT -1 means no limit in SQLite.
const LIST_EVENTS = "SELECT * FROM events WHERE id > @after ORDER BY id LIMIT @limit";
const LIST_RUN_EVENTS = `SELECT * FROM events WHERE run_id = @run_id AND id > @after
ORDER BY id LIMIT @limit`;

// The highest id ever assigned (AUTOINCREMENT's high-water mark), not MAX(id): deleting a run
// removes its events, and the SSE route treats a client cursor above this value as coming from
// another store. A cursor a deleted run's event gave out must still count as known.
const LAST_EVENT_ID = `
SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'events'), 0) AS id`;

export function eventReads(db: Database.Database) {
  const all = db.prepare<[Row], Row>(LIST_EVENTS);
  const ofRun = db.prepare<[Row], Row>(LIST_RUN_EVENTS);
  const last = db.prepare<[], { id: number }>(LAST_EVENT_ID);
  return {
    list(query: EventQuery): EventRecord[] {
      const params = {
        after: query.after ?? 0,
        limit: query.limit ?? -1,
        run_id: query.run_id ?? null,
      };
      const statement = query.run_id === undefined ? all : ofRun;
      return statement.all(params).map(eventCodec.decode);
    },
    lastId: (): number => last.get()!.id,
  };
}

export function eventWrites(db: Database.Database) {
  const insert = db.prepare<[Row], Row>(INSERT_EVENT);
  return {
    append: (events: readonly NewEvent[], now: number): EventRecord[] =>
      events.map((event) =>
        eventCodec.decode(insert.get(eventCodec.encodeAll({ ...event, created: now }))!),
      ),
  };
}

export type EventReads = ReturnType<typeof eventReads>;
export type EventWrites = ReturnType<typeof eventWrites>;
