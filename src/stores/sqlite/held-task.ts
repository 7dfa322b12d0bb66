// The task a unit of work inserted last, held back until the unit's next statement. A finishing
// attempt enqueues its successor and, in the same unit, hands its slot on (engine/slot-claims.ts):
// the claim usually takes that very successor, so its row would go in as `ready` (an entry in
// `tasks_ready`) and be updated to `in_progress` one statement later (that entry deleted, one
// in `tasks_going` made). Held, the row goes in once, already claimed, when the unit next touches
// the store or ends.
//
// The held task's record answers with the id SQLite would give it: `tasks` is AUTOINCREMENT and
// this connection is the file's only writer, so the next id is `sqlite_sequence`'s plus one (read
// once, then counted), and the row is inserted with that id explicitly, which moves
// `sqlite_sequence` as SQLite's own choice would. Whatever else writes or reads on the writer
// flushes the held row first (writer.ts: every write; every read through `flushing`), the claim
// included unless it takes the held task itself (claims.ts), so no statement sees the table
// without it. A unit that fails drops it with the rest of its writes (`drop`, index.ts).
import type Database from "better-sqlite3";
import type { TaskRecord } from "../../engine/index.ts";
import { TASK_COLUMNS } from "./tasks.ts";

const HELD_COLUMNS = [...TASK_COLUMNS, "id", "status", "started", "claim"];
const INSERT_HELD = `INSERT INTO tasks (${HELD_COLUMNS.join(", ")})
VALUES (${HELD_COLUMNS.map(() => "?").join(", ")})`;
const LAST_TASK_ID = "SELECT seq FROM sqlite_sequence WHERE name = 'tasks'";

export class HeldTask {
  readonly #insert: Database.Statement<unknown[]>;
  readonly #lastId: Database.Statement<[], number>;
  #values: readonly unknown[] | null = null;
  #record: TaskRecord | null = null;
  #nextId: number | null = null;

  constructor(db: Database.Database) {
    this.#insert = db.prepare<unknown[]>(INSERT_HELD);
    this.#lastId = db.prepare<[], number>(LAST_TASK_ID).pluck();
  }

  /**
   * Holds a new task: `values` in `TASK_COLUMNS` order, `stored` the record they make with an
   * id. The task held before goes in first. Answers the new task's record.
   */
  hold(values: readonly unknown[], stored: (values: readonly unknown[], id: number) => TaskRecord) {
    this.flush();
    const id = this.#nextId ?? (this.#lastId.get() ?? 0) + 1;
    const record = stored(values, id);
    this.#values = values;
    this.#record = record;
    this.#nextId = id + 1;
    return record;
  }

  /** The held task's id, or null. */
  get id(): number | null {
    return this.#record?.id ?? null;
  }

  /** Claims the held task (it goes in `in_progress`); answers its claimed record. */
  claim(now: number): TaskRecord {
    const record = this.#record!;
    const claimed = { ...record, status: "in_progress" as const, started: now };
    claimed.claim += 1;
    this.#record = claimed;
    return claimed;
  }

  /** Inserts the held task, if any. */
  flush(): void {
    const record = this.#record;
    if (record === null) return;
    const values = this.#values!;
    this.#record = null;
    this.#values = null;
    this.#insert.run([...values, record.id, record.status, record.started, record.claim]);
  }

  /** Another statement inserted tasks: the next id is read again. */
  forgetNextId(): void {
    this.#nextId = null;
  }

  /** Forgets the held task unwritten, and the next id (its unit is being rolled back). */
  drop(): void {
    this.#record = null;
    this.#values = null;
    this.#nextId = null;
  }
}

/** `reads` whose every use first inserts the held task, for the writer's reads. */
export function flushing<T extends object>(reads: T, held: HeldTask): T {
  return new Proxy(reads, {
    get(target, key, receiver) {
      held.flush();
      return Reflect.get(target, key, receiver);
    },
  });
}
