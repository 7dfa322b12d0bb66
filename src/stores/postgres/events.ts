// Stored events. Ids come from the `events` row of `counters`, bumped by the same statement
// that inserts the events: the bump locks that row until the transaction ends, so ids are
// handed out in commit order (a reader following `after` never sees a smaller id commit later,
// even with several servers), a rolled-back bump is undone with its events, and the counter
// keeps the highest id ever handed out after a run's events are deleted.
import type { EventQuery, EventRecord, NewEvent } from "../../engine/index.ts";
import { asCtes, type Deferred } from "./deferred.ts";
import { toEvent } from "./rows.ts";
import { type Db, first, json, rows, sql, where } from "./sql.ts";

// One statement for any number of events: arrays in, ids counted from the bumped value. The
// writes held back by the unit (deferred.ts) go first in the same statement, as CTEs. The writer
// knows the ids already (batch-ids.ts) and does not wait for an answer: the bump holds only when
// the counter is at the value the writer counted from ($7), else the ids are NULL and the insert
// fails.
const APPEND = `bump AS (
  UPDATE counters SET value = value + $1::bigint WHERE name = 'events' AND value = $7::bigint
  RETURNING value
)
INSERT INTO events (id, name, run_id, task_id, data, created)
SELECT (SELECT value FROM bump) - $1::bigint + e.ord, e.name, e.run_id, e.task_id, e.data::json,
  $6::bigint
FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[])
  WITH ORDINALITY AS e(name, run_id, task_id, data, ord)`;
const APPEND_PARAMETERS = 7;

/** The append with `before` as CTEs ahead of it, their parameters numbered after its own. */
function appendStatement(before: readonly Deferred[]): { text: string; values: unknown[] } {
  const { ctes, values } = asCtes(before, APPEND_PARAMETERS);
  return { text: `WITH ${[...ctes, APPEND].join(",\n")}`, values };
}

const LAST_EVENT_ID = sql("SELECT value FROM counters WHERE name = 'events'");

/**
 * Stores `events` with ids `counter + 1`, `counter + 2` ... (`counter`: the events counter as
 * the transaction has it, batch-ids.ts), sent as a write (not waited for); answers the records
 * as a read would.
 */
export async function appendEvents(
  db: Db,
  events: readonly NewEvent[],
  now: number,
  counter: number,
  before: readonly Deferred[] = [],
): Promise<EventRecord[]> {
  if (events.length === 0) return [];
  const texts = events.map((e) => json(e.data ?? null));
  const values = [
    events.length,
    events.map((e) => e.name),
    events.map((e) => e.run_id ?? null),
    events.map((e) => e.task_id ?? null),
    texts,
    now,
    counter,
  ];
  const statement = appendStatement(before);
  await db.write(sql(statement.text), [...values, ...statement.values]);
  // What was stored, as a read answers it (data through JSON, like the column).
  return events.map((event, i) => ({
    id: counter + 1 + i,
    name: event.name,
    run_id: event.run_id ?? null,
    task_id: event.task_id ?? null,
    data: JSON.parse(texts[i]),
    created: now,
  }));
}

export async function listEvents(db: Db, query: EventQuery): Promise<EventRecord[]> {
  const values: unknown[] = [query.after ?? 0];
  const conditions = ["id > $1"];
  if (query.run_id !== undefined) {
    values.push(query.run_id);
    conditions.push(`run_id = $${values.length}`);
  }
  // LIMIT NULL is no limit; so is a negative one, as in the SQLite store.
  const limit = query.limit === undefined || query.limit < 0 ? null : Math.floor(query.limit);
  values.push(limit);
  const text = `SELECT * FROM events ${where(conditions)} ORDER BY id LIMIT $${values.length}`;
  const statement = sql(text);
  return (await rows(db, statement, values)).map(toEvent);
}

export async function lastEventId(db: Db): Promise<number> {
  return (await first(db, LAST_EVENT_ID))!.value;
}
