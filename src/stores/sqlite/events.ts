// Stored events. Ids come from AUTOINCREMENT, so they only grow, even after a run's events are
// deleted: a client's `after` cursor never skips a new event.
import type Database from "better-sqlite3";
import type { EventQuery, EventRecord, NewEvent } from "../../engine/index.ts";
import { eventCodec } from "./columns.ts";
import { RecordQuery } from "./record-query.ts";

// A unit's events go in with one multi-row INSERT per chunk, and are not read back: there is
// one writer, so AUTOINCREMENT hands the rows of one statement consecutive ids ending at the
// statement's last rowid. (PostgreSQL: the same INSERT with RETURNING id.) A chunk stays far
// below SQLite's limit of 32,766 bound parameters.
const CHUNK = 200;
const ROW = "(?, ?, ?, ?, ?)";
const insertSql = (rows: number) =>
  `INSERT INTO events (name, run_id, task_id, data, created) VALUES ${Array(rows).fill(ROW).join(", ")}`;

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
  const all = new RecordQuery(db, LIST_EVENTS, eventCodec);
  const ofRun = new RecordQuery(db, LIST_RUN_EVENTS, eventCodec);
  const last = db.prepare<[], { id: number }>(LAST_EVENT_ID);
  return {
    list(query: EventQuery): EventRecord[] {
      const params = {
        after: query.after ?? 0,
        limit: query.limit ?? -1,
        run_id: query.run_id ?? null,
      };
      const statement = query.run_id === undefined ? all : ofRun;
      return statement.all(params);
    },
    lastId: (): number => last.get()!.id,
  };
}

export function eventWrites(db: Database.Database) {
  // One statement per chunk size, prepared on first use (a few sizes recur: 1 to 6 events).
  const inserts = new Map<number, Database.Statement<unknown[]>>();
  const insert = (rows: number) => {
    let statement = inserts.get(rows);
    if (statement === undefined) {
      statement = db.prepare<unknown[]>(insertSql(rows));
      inserts.set(rows, statement);
    }
    return statement;
  };
  const appendChunk = (
    events: readonly NewEvent[],
    from: number,
    to: number,
    now: number,
    out: EventRecord[],
  ): void => {
    const params: unknown[] = [];
    const texts: string[] = [];
    for (let i = from; i < to; i++) {
      const event = events[i]!;
      const text = JSON.stringify(event.data ?? null);
      texts.push(text);
      params.push(event.name, event.run_id ?? null, event.task_id ?? null, text, now);
    }
    const last = Number(insert(to - from).run(params).lastInsertRowid);
    const first = last - (to - from) + 1;
    // What was stored, as a read would answer it (data through JSON, like the column).
    for (let i = from; i < to; i++) {
      const event = events[i]!;
      out.push({
        id: first + i - from,
        name: event.name,
        run_id: event.run_id ?? null,
        task_id: event.task_id ?? null,
        data: JSON.parse(texts[i - from]!),
        created: now,
      });
    }
  };
  return {
    append(events: readonly NewEvent[], now: number): EventRecord[] {
      const out: EventRecord[] = [];
      for (let i = 0; i < events.length; i += CHUNK) {
        appendChunk(events, i, Math.min(i + CHUNK, events.length), now, out);
      }
      return out;
    },
  };
}

export type EventReads = ReturnType<typeof eventReads>;
export type EventWrites = ReturnType<typeof eventWrites>;
