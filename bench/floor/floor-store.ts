// The least a durable engine must write, for bench/floor.ts: a run row, one task row per attempt
// (inserted, claimed, finished), one arrival row per branch that reaches a join (bound to the
// join's task when it is enqueued), and the stored events a client can replay, all in one WAL
// transaction per turn of the event loop (group commit), with the store's own settings
// (synchronous=NORMAL, 2 KiB pages). No foreign keys, no partial indexes, no guards, no
// migrations: only the indexes the contract's per-run reads (and a join's recovery) need. Anything Yardmaster's
// store does on top of this is what it could, at best, shave off.
import Database from "better-sqlite3";

const SCHEMA = `
CREATE TABLE runs (id TEXT PRIMARY KEY, workflow TEXT NOT NULL, title TEXT NOT NULL,
  status TEXT NOT NULL, created INTEGER NOT NULL, updated INTEGER NOT NULL) STRICT;
CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, node TEXT NOT NULL,
  status TEXT NOT NULL, payload TEXT NOT NULL, result TEXT NOT NULL DEFAULT 'null',
  created INTEGER NOT NULL, started INTEGER, finished INTEGER) STRICT;
CREATE INDEX tasks_run ON tasks (run_id, id);
CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, run_id TEXT,
  task_id INTEGER, data TEXT NOT NULL, created INTEGER NOT NULL) STRICT;
CREATE INDEX events_run ON events (run_id, id);
CREATE TABLE arrivals (seq INTEGER PRIMARY KEY, run_id TEXT NOT NULL, fanout INTEGER NOT NULL,
  branch_index INTEGER NOT NULL, task_id INTEGER NOT NULL, value TEXT NOT NULL,
  join_task INTEGER) STRICT;
CREATE INDEX arrivals_run ON arrivals (run_id, fanout);`;

export interface FloorEvent {
  name: string;
  run_id: string;
  task_id: number | null;
  data: Record<string, unknown>;
}

export interface StoredEvent extends FloorEvent {
  id: number;
  created: number;
}

const EVENT_ROW = "(?, ?, ?, ?, ?)";

export class FloorSqliteStore {
  readonly #db: Database.Database;
  readonly #insertRun: Database.Statement<unknown[]>;
  readonly #finishRun: Database.Statement<unknown[]>;
  readonly #insertTask: Database.Statement<unknown[]>;
  readonly #claimTask: Database.Statement<unknown[]>;
  readonly #finishTask: Database.Statement<unknown[]>;
  readonly #insertArrival: Database.Statement<unknown[]>;
  readonly #bindArrivals: Database.Statement<unknown[]>;
  readonly #eventInserts = new Map<number, Database.Statement<unknown[]>>();

  constructor(file: string) {
    this.#db = new Database(file);
    this.#db.pragma("page_size = 2048");
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = NORMAL");
    this.#db.exec(SCHEMA);
    const p = (sql: string) => this.#db.prepare<unknown[]>(sql);
    this.#insertRun = p(
      "INSERT INTO runs (id, workflow, title, status, created, updated) VALUES (?, ?, ?, 'running', ?, ?)",
    );
    this.#finishRun = p("UPDATE runs SET status = 'completed', updated = ? WHERE id = ?");
    this.#insertTask = p(
      "INSERT INTO tasks (run_id, node, status, payload, created) VALUES (?, ?, 'ready', ?, ?)",
    );
    this.#claimTask = p("UPDATE tasks SET status = 'in_progress', started = ? WHERE id = ?");
    this.#finishTask = p("UPDATE tasks SET status = 'done', result = ?, finished = ? WHERE id = ?");
    this.#insertArrival = p(
      "INSERT INTO arrivals (run_id, fanout, branch_index, task_id, value) VALUES (?, ?, ?, ?, ?)",
    );
    this.#bindArrivals = p("UPDATE arrivals SET join_task = ? WHERE run_id = ? AND fanout = ?");
  }

  /** Runs `fn` in one transaction: a batch's writes commit together or not at all. */
  transaction(fn: () => void): void {
    this.#db.transaction(fn)();
  }

  insertRun(id: string, workflow: string, title: string, now: number): void {
    this.#insertRun.run(id, workflow, title, now, now);
  }

  finishRun(id: string, now: number): void {
    this.#finishRun.run(now, id);
  }

  insertTask(runId: string, node: string, payload: unknown, now: number): number {
    return Number(this.#insertTask.run(runId, node, JSON.stringify(payload), now).lastInsertRowid);
  }

  claimTask(id: number, now: number): void {
    this.#claimTask.run(now, id);
  }

  finishTask(id: number, result: unknown, now: number): void {
    this.#finishTask.run(JSON.stringify(result), now, id);
  }

  insertArrival(runId: string, fanout: number, index: number, taskId: number, value: unknown) {
    this.#insertArrival.run(runId, fanout, index, taskId, JSON.stringify(value));
  }

  bindArrivals(runId: string, fanout: number, joinTask: number): void {
    this.#bindArrivals.run(joinTask, runId, fanout);
  }

  /** One multi-row INSERT per 200 events; ids are the consecutive AUTOINCREMENT values. */
  appendEvents(events: readonly FloorEvent[], now: number): StoredEvent[] {
    const out: StoredEvent[] = [];
    for (let at = 0; at < events.length; at += 200) {
      const chunk = events.slice(at, at + 200);
      const params: unknown[] = [];
      for (const e of chunk) params.push(e.name, e.run_id, e.task_id, JSON.stringify(e.data), now);
      const last = Number(this.#eventInsert(chunk.length).run(params).lastInsertRowid);
      for (const [i, e] of chunk.entries()) {
        out.push({ ...e, id: last - chunk.length + 1 + i, created: now });
      }
    }
    return out;
  }

  #eventInsert(rows: number): Database.Statement<unknown[]> {
    let statement = this.#eventInserts.get(rows);
    if (!statement) {
      const values = Array(rows).fill(EVENT_ROW).join(", ");
      statement = this.#db.prepare(
        `INSERT INTO events (name, run_id, task_id, data, created) VALUES ${values}`,
      );
      this.#eventInserts.set(rows, statement);
    }
    return statement;
  }

  close(): void {
    this.#db.close();
  }
}
