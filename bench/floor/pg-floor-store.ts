// The floor's store on PostgreSQL for W1 and W4 (bench/floor-pg.ts): the rows and events the SQLite floor
// writes, in Yardmaster's tables with the columns their indexes and NOT NULLs need and every
// index Yardmaster's PostgreSQL schema has on them (src/stores/postgres/schema-v*.ts; `bare`: the
// SQLite floor's two indexes only), no foreign keys, no CHECKs. A transaction is one statement:
// the turn's writes coalesced per row (a task inserted and claimed in the same turn is inserted
// claimed) and sent as data-modifying CTEs over `unnest` arrays, one named prepared statement,
// committed on its own (autocommit) with the cluster's `synchronous_commit=on`: its promise
// settles once the commit is flushed. Ids (tasks, events, run positions) are handed out here:
// the floor's process holds its schema alone, and its transactions go one after another on its
// one connection, so event ids follow commit order. A server sharing the schema would take the
// schema's write lock and read the counters in each transaction (as Yardmaster does). The claim
// and the step's end are guarded by the status they expect and counted: a claim can not take an
// attempt twice, and a miscount stops the floor.
import pg from "pg";
import type { FloorStore } from "./floor-engine.ts";
import type { FloorEvent, StoredEvent } from "./floor-store.ts";

const YARDMASTER_INDEXES = `
ALTER TABLE runs ADD CONSTRAINT runs_position_unique UNIQUE (position) DEFERRABLE INITIALLY IMMEDIATE;
CREATE INDEX runs_active ON runs (position) INCLUDE (workflow) WHERE status IN ('queued', 'running');
CREATE INDEX runs_open ON runs (status) WHERE status IN ('queued', 'running', 'paused');
CREATE INDEX runs_created ON runs (created, id);
CREATE INDEX runs_updated ON runs (updated, id);
CREATE INDEX tasks_ready ON tasks (run_id, priority DESC, created, id) WHERE status = 'ready';
CREATE INDEX tasks_live ON tasks (run_id) WHERE status IN ('ready', 'in_progress', 'waiting');
CREATE INDEX tasks_going ON tasks (id) WHERE status IN ('in_progress', 'waiting');
CREATE INDEX tasks_token ON tasks (token_hash) WHERE token_hash IS NOT NULL;
CREATE INDEX tasks_deferred ON tasks (not_before) WHERE status = 'ready' AND not_before IS NOT NULL;
CREATE INDEX tasks_owned ON tasks (owner) WHERE status IN ('in_progress', 'waiting');`;

const SCHEMA = `
CREATE TABLE runs (id text PRIMARY KEY, workflow text NOT NULL, title text NOT NULL,
  description text NOT NULL DEFAULT '', status text NOT NULL, position integer NOT NULL,
  created bigint NOT NULL, updated bigint NOT NULL, started boolean NOT NULL);
CREATE TABLE tasks (id bigint PRIMARY KEY, run_id text NOT NULL, node text NOT NULL,
  attempt integer NOT NULL DEFAULT 1, status text NOT NULL, priority double precision NOT NULL
  DEFAULT 0, explicit boolean NOT NULL DEFAULT false, created bigint NOT NULL, started bigint,
  finished bigint, payload_present boolean NOT NULL DEFAULT true, payload json NOT NULL,
  result json NOT NULL DEFAULT 'null', result_present boolean NOT NULL DEFAULT false,
  branch json NOT NULL DEFAULT '[]', lineage json NOT NULL DEFAULT '[]', token_hash text,
  not_before bigint, owner text);
CREATE INDEX tasks_run ON tasks (run_id, id);
CREATE TABLE events (id bigint PRIMARY KEY, name text NOT NULL, run_id text, task_id bigint,
  data json NOT NULL, created bigint NOT NULL);
CREATE INDEX events_run ON events (run_id, id);`;

// $1 now; runs inserted $2-$5, ended $6; tasks inserted $7-$12, moved $13-$18; events $19-$23.
const TURN = `
WITH run_in AS (
  INSERT INTO runs (id, workflow, title, status, position, created, updated, started)
  SELECT id, workflow, title, 'running', position, $1, $1, true
    FROM unnest($2::text[], $3::text[], $4::text[], $5::int[]) AS r (id, workflow, title, position)
), run_end AS (
  UPDATE runs SET status = 'completed', updated = $1
    FROM unnest($6::text[]) AS r (id) WHERE runs.id = r.id AND runs.status = 'running'
  RETURNING 1
), task_in AS (
  INSERT INTO tasks (id, run_id, node, status, created, started, payload, result, finished,
    result_present)
  SELECT id, run_id, node, status, $1, started, payload::json, 'null', NULL, false
    FROM unnest($7::bigint[], $8::text[], $9::text[], $10::text[], $11::bigint[], $12::text[])
      AS t (id, run_id, node, status, started, payload)
), task_move AS (
  UPDATE tasks SET status = t.status, started = coalesce(t.started, tasks.started),
      finished = t.finished, result = coalesce(t.result::json, tasks.result),
      result_present = t.result IS NOT NULL OR tasks.result_present
    FROM unnest($13::bigint[], $14::text[], $15::text[], $16::bigint[], $17::bigint[], $18::text[])
      AS t (id, expected, status, started, finished, result)
   WHERE tasks.id = t.id AND tasks.status = t.expected
  RETURNING 1
), event_in AS (
  INSERT INTO events (id, name, run_id, task_id, data, created)
  SELECT id, name, run_id, task_id, data::json, $1
    FROM unnest($19::bigint[], $20::text[], $21::text[], $22::bigint[], $23::text[])
      AS e (id, name, run_id, task_id, data)
)
SELECT (SELECT count(*) FROM run_end)::int AS ended, (SELECT count(*) FROM task_move)::int AS moved`;

interface TaskRow {
  id: number;
  runId: string;
  node: string;
  status: string;
  started: number | null;
  payload: string;
}

interface TaskMove {
  expected: string;
  status: string;
  started: number | null;
  finished: number | null;
  result: string | null;
}

/** One turn's writes, each row in its final state. */
class Turn {
  now = 0;
  runs = new Map<string, { workflow: string; title: string; position: number }>();
  ended: string[] = [];
  tasks = new Map<number, TaskRow>();
  moves = new Map<number, TaskMove>();
  events: StoredEvent[] = [];
}

/** What the floor's commits took, summed (the driver asks by IPC: `floor-pg-stats`). */
export interface CommitStats {
  commits: number;
  /** The turn's JavaScript: its operations, the claims, building and sending the statement. */
  buildMs: number;
  /** From the statement sent to its answer (the commit durable). */
  commitMs: number;
  /** Events the commits stored. */
  events: number;
}

export interface PgFloorOptions {
  /** Only the SQLite floor's two indexes (`tasks_run`, `events_run`) besides the keys. */
  bare?: boolean;
  /** pg's pipeline mode (for more than one commit in flight). */
  pipeline?: boolean;
}

export class PgFloorStore implements FloorStore {
  readonly #client: pg.Client;
  #turn = new Turn();
  #task = 0;
  #event = 0;
  #position = 0;
  readonly #stats: CommitStats = { commits: 0, buildMs: 0, commitMs: 0, events: 0 };

  private constructor(client: pg.Client) {
    this.#client = client;
    process.on("message", (m) => {
      if (m === "floor-pg-stats") process.send?.({ stats: this.#stats });
      // A clean exit, so that `--cpu-prof` writes its profile (FLOOR_PG_PROFILE).
      if (m === "floor-pg-exit") client.end().finally(() => process.exit(0));
    });
  }

  /**
   * Connects to `target` (a PostgreSQL URL whose `schema` names the new schema to create the
   * tables in, as Yardmaster's store URLs do; `floor_indexes=bare` for `bare`,
   * `floor_pipeline=1` for `pipeline`).
   */
  static fromTarget(target: string): Promise<PgFloorStore> {
    const url = new URL(target);
    const schema = url.searchParams.get("schema") ?? "floor";
    const bare = url.searchParams.get("floor_indexes") === "bare";
    const pipeline = url.searchParams.get("floor_pipeline") === "1";
    for (const key of ["schema", "floor_indexes", "floor_pipeline"]) url.searchParams.delete(key);
    return PgFloorStore.open(url.toString(), schema, { bare, pipeline });
  }

  /** Connects to `url` and creates the floor's tables in a new schema `schema`. */
  static async open(url: string, schema: string, options: PgFloorOptions = {}) {
    // Pipeline mode: a commit built while another is in flight goes out at once.
    const client = new pg.Client({ connectionString: url, pipeline: options.pipeline });
    await client.connect();
    await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
    await client.query(options.bare ? SCHEMA : SCHEMA + YARDMASTER_INDEXES);
    return new PgFloorStore(client);
  }

  transaction(fn: () => void): Promise<void> {
    const start = performance.now();
    fn();
    const turn = this.#turn;
    this.#turn = new Turn();
    return this.#commit(turn, start);
  }

  async #commit(t: Turn, start: number): Promise<void> {
    const runs = [...t.runs.entries()];
    const tasks = [...t.tasks.values()];
    const moves = [...t.moves.entries()];
    const values = [
      t.now,
      runs.map(([id]) => id),
      runs.map(([, r]) => r.workflow),
      runs.map(([, r]) => r.title),
      runs.map(([, r]) => r.position),
      t.ended,
      tasks.map((r) => r.id),
      tasks.map((r) => r.runId),
      tasks.map((r) => r.node),
      tasks.map((r) => r.status),
      tasks.map((r) => r.started),
      tasks.map((r) => r.payload),
      moves.map(([id]) => id),
      moves.map(([, m]) => m.expected),
      moves.map(([, m]) => m.status),
      moves.map(([, m]) => m.started),
      moves.map(([, m]) => m.finished),
      moves.map(([, m]) => m.result),
      t.events.map((e) => e.id),
      t.events.map((e) => e.name),
      t.events.map((e) => e.run_id),
      t.events.map((e) => e.task_id),
      t.events.map((e) => JSON.stringify(e.data)),
    ];
    const answer = this.#client.query({ name: "floor_turn", text: TURN, values });
    const sent = performance.now();
    this.#stats.buildMs += sent - start;
    const { rows } = await answer;
    this.#stats.commits += 1;
    this.#stats.commitMs += performance.now() - sent;
    this.#stats.events += t.events.length;
    if (rows[0].ended !== t.ended.length || rows[0].moved !== moves.length)
      throw new Error(`floor: ${rows[0].moved} of ${moves.length} task moves took effect`);
  }

  insertRun(id: string, workflow: string, title: string): void {
    this.#turn.runs.set(id, { workflow, title, position: ++this.#position });
  }

  finishRun(id: string): void {
    this.#turn.ended.push(id);
  }

  insertTask(runId: string, node: string, payload: unknown): number {
    const id = ++this.#task;
    const row = {
      id,
      runId,
      node,
      status: "ready",
      started: null,
      payload: JSON.stringify(payload),
    };
    this.#turn.tasks.set(id, row);
    return id;
  }

  claimTask(id: number, now: number): void {
    const row = this.#turn.tasks.get(id);
    if (row) {
      row.status = "in_progress";
      row.started = now;
      return;
    }
    this.#move(id, "ready", { status: "in_progress", started: now, finished: null, result: null });
  }

  finishTask(id: number, result: unknown, now: number): void {
    const move = { status: "done", started: null, finished: now, result: JSON.stringify(result) };
    this.#move(id, "in_progress", move);
  }

  #move(id: number, expected: string, move: Omit<TaskMove, "expected">): void {
    const before = this.#turn.moves.get(id);
    if (before) Object.assign(before, move, { started: move.started ?? before.started });
    else this.#turn.moves.set(id, { expected, ...move });
  }

  appendEvents(events: readonly FloorEvent[], now: number): StoredEvent[] {
    this.#turn.now = now;
    const stored = events.map((e) => ({ ...e, id: ++this.#event, created: now }));
    this.#turn.events.push(...stored);
    return stored;
  }

  // The PostgreSQL floor runs W1's chain and W4's naps: no workflow of them joins.
  insertArrival(): void {
    throw new Error("the PostgreSQL floor runs W1 and W4 only: it has no arrivals");
  }

  bindArrivals(): void {
    throw new Error("the PostgreSQL floor runs W1 and W4 only: it has no arrivals");
  }

  close(): Promise<void> {
    return this.#client.end();
  }
}
