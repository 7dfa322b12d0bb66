// The one storage interface the engine and the service layer use. It is shaped by the domain
// (runs, attempts, the work log, requests, events), never by SQL. Every implementation
// (`src/stores/sqlite`, `src/stores/postgres`) must pass `test/stores/contract.ts`.
//
// Consistency model:
// - Every state change happens inside `transact`, which is one database transaction: all of its
//   writes, including the events that describe them, commit together or not at all.
// - Transactions are serialized with respect to each other (SQLite: one writer connection;
//   PostgreSQL: one writer connection running them one at a time under READ COMMITTED). A claim
//   is a single atomic statement (PostgreSQL: `FOR UPDATE SKIP LOCKED`), so several servers on
//   one database could later share pools; today a server holds its store alone (serving lock).
// - Reads outside `transact` see committed data only.
import type {
  ArrivalRecord,
  EventRecord,
  IdempotencyRecord,
  LogRecord,
  NewEvent,
  NewTask,
  RegistrationRecord,
  RequestRecord,
  RunRecord,
  RunStatus,
  ScheduleFireRecord,
  ScheduleRecord,
  StreamChunkRecord,
  SubmissionRecord,
  TaskRecord,
  TaskStatus,
} from "./domain.ts";

export interface RunFilter {
  status?: RunStatus;
  workflow?: string;
  /** Case-insensitive substring of the title (ASCII case folding on SQLite). */
  title?: string;
  /** Only runs at a position after this one (keyset paging in dispatch order). */
  after?: number;
  /** At most this many runs. */
  limit?: number;
  /** Any of these statuses (with `status`, both must hold). */
  statuses?: readonly RunStatus[];
  /** Title contains this text (as `title`) or the id starts with it (an exact id included). */
  search?: string;
  /** Created at or after this instant (epoch ms). */
  createdFrom?: number;
  /** Created strictly before this instant (epoch ms). */
  createdBefore?: number;
  /**
   * The order: `position` (dispatch order, the default), or newest first by `created` or
   * `updated`, then by id descending.
   */
  sort?: RunSort;
  /** With a time sort: only runs after this one in that order (keyset paging). */
  afterKey?: { at: number; id: string };
}

export type RunSort = "position" | "created" | "updated";

/**
 * A selection of runs for operations in bulk and retention (`selectRuns`): oldest first, by
 * `created` then `id`, so deleting or changing what a page selected never shifts the next page.
 */
export interface RunSelection {
  /** Any of these statuses (absent: every status). */
  statuses?: readonly RunStatus[];
  workflow?: string;
  /** Created strictly before this instant (epoch ms). */
  createdBefore?: number;
  /** Last changed strictly before this instant (epoch ms): a terminal run's end. */
  updatedBefore?: number;
  /** Only runs after this one in the selection's order (keyset paging). */
  after?: { created: number; id: string };
  limit: number;
}

/** Runs per status and workflow (the navigation's badges). */
export interface RunCount {
  status: RunStatus;
  workflow: string;
  count: number;
}

export interface TaskFilter {
  run_id?: string;
  status?: readonly TaskStatus[];
  node?: string;
}

export interface RequestFilter {
  run_id?: string;
  task_id?: number;
  /** true: unanswered and not stale. false or absent: everything. */
  pending?: boolean;
}

export interface EventQuery {
  after?: number;
  limit?: number;
  run_id?: string;
}

export interface TaskGuard {
  /** Only update when the row's status is one of these. */
  status?: readonly TaskStatus[];
  /** Only update when the row's claim counter equals this (the claimer still owns it). */
  claim?: number;
  /**
   * Shared stores: only update while fewer than `capacity` attempts of `workflows` are in
   * progress on every server (a resumed attempt takes its pool slot back). A store with one
   * server leaves this to the pool's slots in memory and ignores it.
   */
  room?: { workflows: readonly string[]; capacity: number };
}

/** One update of `StoreWriter.updateTasks`: `updateTask`'s arguments, its run named. */
export interface TaskUpdate {
  id: number;
  patch: Partial<Omit<TaskRecord, "id" | "run_id">>;
  guard?: TaskGuard;
  runId: string;
}

/** Run statuses of runs not ended, which the store counts (countRuns). */
export type OpenRunStatus = "queued" | "running" | "paused";
export const OPEN_RUN_STATUSES: readonly OpenRunStatus[] = ["queued", "running", "paused"];
/** Statuses of attempts not finished, which the store counts (countTasks). */
export type LiveTaskStatus = "ready" | "in_progress" | "waiting";
export const LIVE_TASK_STATUSES: readonly LiveTaskStatus[] = ["ready", "in_progress", "waiting"];

/** Whether the store answers, and the schema version it is at against the one this build has. */
export interface StoreProbe {
  schema: number;
  expected: number;
}

export interface ArrivalTally {
  arrived: number;
  indexArrived: boolean;
  joined: boolean;
}

/** Reads. Inside `transact` they see the transaction's own writes. */
export interface StoreReader {
  getRun(id: string): Promise<RunRecord | null>;
  /** Ordered by position ascending. */
  /** Ordered by position (dispatch order). */
  listRuns(filter?: RunFilter): Promise<RunRecord[]>;
  /** Runs matching `selection`, ordered by `created` then `id`, at most `selection.limit`. */
  selectRuns(selection: RunSelection): Promise<RunRecord[]>;
  /** Runs per status and workflow, every status (a scan of the runs table). */
  countRunsByStatus(): Promise<RunCount[]>;
  getTask(id: number): Promise<TaskRecord | null>;
  /** Ordered by id ascending. */
  listTasks(filter: TaskFilter): Promise<TaskRecord[]>;
  /**
   * Whether the run has a task that is ready, in_progress or waiting. Settling asks this after
   * every completion that ends a branch, so it must not cost in proportion to the run's tasks.
   */
  hasOutstandingTasks(runId: string): Promise<boolean>;
  findTaskByTokenHash(hash: string): Promise<TaskRecord | null>;
  /** Ordered by id ascending. */
  listLog(runId: string): Promise<LogRecord[]>;
  getRequest(id: number): Promise<RequestRecord | null>;
  /** Ordered by id ascending. */
  listRequests(filter?: RequestFilter): Promise<RequestRecord[]>;
  /** Ordered by id ascending. */
  listSubmissions(taskId: number): Promise<SubmissionRecord[]>;
  /** Arrivals of a run, optionally of one join and one fan-out, ordered by fanout then index. */
  listArrivals(runId: string, join?: string, fanout?: number): Promise<ArrivalRecord[]>;
  /**
   * What a new arrival at (run, join, fanout) needs to know, without reading the arrivals:
   * how many are stored, whether branch `index` is among them, whether the join task was set.
   */
  tallyArrivals(runId: string, join: string, fanout: number, index: number): Promise<ArrivalTally>;
  /** Stored events, oldest first. */
  listEvents(query: EventQuery): Promise<EventRecord[]>;
  /** Highest event id ever handed out (even if its run was deleted since), 0 when none. */
  lastEventId(): Promise<number>;
  /** Chunks with seq > after, in seq order, at most limit. */
  listChunks(taskId: number, after: number, limit: number): Promise<StreamChunkRecord[]>;
  /** Highest stored seq of the task, 0 when none. */
  lastChunkSeq(taskId: number): Promise<number>;
  /** In registration order. */
  listRegistrations(): Promise<RegistrationRecord[]>;
  /** The stored idempotency key, whatever its age (the engine judges its window), or null. */
  getIdempotencyKey(key: string): Promise<IdempotencyRecord | null>;
  /** Ordered by name. */
  listSchedules(): Promise<ScheduleRecord[]>;
  getSchedule(name: string): Promise<ScheduleRecord | null>;
  /** The schedule's fire with the latest `scheduled_at`, or null when it never fired. */
  lastScheduleFire(name: string): Promise<ScheduleFireRecord | null>;
  // Counts for health and metrics, which anyone may ask for often: each is answered from an
  // index that holds open or live rows only (never by reading rows), so it costs one index entry
  // per row counted, whatever history the store keeps.
  countRuns(status: OpenRunStatus): Promise<number>;
  countTasks(status: LiveTaskStatus): Promise<number>;
  /** Requests a person can still answer (unanswered, not stale). */
  countPendingRequests(): Promise<number>;
  /**
   * Ready attempts of queued and running runs (what a claim can take), by workflow; a workflow
   * with none is absent. Costs in proportion to the ready attempts (an index of ready rows).
   */
  countReady(): Promise<Record<string, number>>;
  /**
   * The earliest `not_before` later than `after` among ready attempts of these workflows (any
   * run status), or null: when the dispatcher's timer must next wake their pool. Answered from
   * an index of the ready rows that wait for a moment.
   */
  nextNotBefore(workflows: readonly string[], after: number): Promise<number | null>;
}

/** Writes, available only inside `transact`. */
export interface StoreWriter extends StoreReader {
  /** Appends the run at the end of the dispatch list (position n+1). */
  insertRun(run: Omit<RunRecord, "position">): Promise<RunRecord>;
  /**
   * `insertRun` for each of `runs`, in order: they take consecutive positions at the end of the
   * list. Answers the records in the same order. One statement per chunk, not one per run.
   */
  insertRuns(runs: ReadonlyArray<Omit<RunRecord, "position">>): Promise<RunRecord[]>;
  updateRun(id: string, patch: Partial<Omit<RunRecord, "id" | "position">>): Promise<RunRecord>;
  /**
   * Sets `updated` of each run to `now` (a run not found is passed over); nothing is read back.
   * The unit of work calls it once per transaction with the runs its stored events are about.
   */
  touchRuns(ids: readonly string[], now: number): Promise<void>;
  /** Moves the run to zero-based `index` (clamped) and renumbers the list 1..n. */
  moveRun(id: string, index: number): Promise<RunRecord>;
  /** Removes the run and everything under it, and closes the gap in positions. */
  deleteRun(id: string): Promise<void>;
  /**
   * `deleteRun` for many runs, renumbering the dispatch list once (a missing id is skipped).
   * What a batch of deletes costs is one pass over the list behind the first, not one per run.
   */
  deleteRuns(ids: readonly string[]): Promise<void>;
  insertTask(task: NewTask): Promise<TaskRecord>;
  /** `insertTask` for each of `tasks`, in order; answers the records in that order, ids ascending. */
  insertTasks(tasks: readonly NewTask[]): Promise<TaskRecord[]>;
  /**
   * Applies `patch` when `guard` holds; answers the updated row, or null when it did not hold.
   * `runId`, when the caller knows the task's run, tells the store that the update changes
   * nothing of any other run (PostgreSQL keeps what it read of other runs across it).
   */
  updateTask(
    id: number,
    patch: Partial<Omit<TaskRecord, "id" | "run_id">>,
    guard?: TaskGuard,
    runId?: string,
  ): Promise<TaskRecord | null>;
  /**
   * `updateTask` for each of `updates`, answered in order, each task's run named (`runId`).
   * Several may be of one run; a read after them sees them all. PostgreSQL sends those of one
   * shape (the same fields and guard) as one statement.
   */
  updateTasks(updates: readonly TaskUpdate[]): Promise<Array<TaskRecord | null>>;
  /**
   * Claims up to `limit` ready tasks of the given workflows in dispatch order: run position
   * ascending, then task priority descending, then created, then id. Runs that are paused or
   * ended are skipped, and so are tasks whose `not_before` is later than `now`. Each claimed row becomes in_progress with `started = now` and its claim
   * counter incremented. One atomic statement.
   */
  claimTasks(
    workflows: readonly string[],
    limit: number,
    now: number,
    scope?: ClaimScope,
  ): Promise<TaskRecord[]>;
  /**
   * Shared stores: removes the rows of these servers that are dead (lease run out, or the
   * server's presence gone); answers the ids it removed. Their attempts are then orphaned.
   */
  dropServers?(ids: readonly string[]): Promise<string[]>;
  /**
   * Shared stores: attempts (in progress or waiting) owned by one of `owners`, or, with
   * `owners` null, by no live server row at all (and in-progress ones owned by nobody).
   */
  orphanedTasks?(owners: readonly string[] | null): Promise<TaskRecord[]>;
  appendLog(entry: Omit<LogRecord, "id">): Promise<LogRecord>;
  insertRequest(request: Omit<RequestRecord, "id">): Promise<RequestRecord>;
  updateRequest(id: number, patch: Partial<Omit<RequestRecord, "id">>): Promise<RequestRecord>;
  /**
   * Marks the attempt's pending requests (unanswered, not stale) stale, only those of `source`
   * when given; nothing is read back. Called when an attempt ends, so every attempt's end pays
   * for it: one statement, which may ride along with a later one of the transaction.
   */
  staleRequests(taskId: number, source?: RequestRecord["source"]): Promise<void>;
  insertSubmission(
    submission: Omit<SubmissionRecord, "id" | "agent_call">,
  ): Promise<SubmissionRecord>;
  /** Marks a submission as the result of the attempt's `ctx.agent` call number `call`. */
  markAgentResult(submissionId: number, call: number): Promise<void>;
  insertArrival(arrival: ArrivalRecord): Promise<void>;
  /** Records the join task enqueued for the arrivals of (run, join, fanout). */
  setJoinTask(runId: string, join: string, fanout: number, taskId: number): Promise<void>;
  /** Stores events with fresh monotonic ids, in order. */
  appendEvents(events: readonly NewEvent[], now: number): Promise<EventRecord[]>;
  /** Appends chunks, numbering them from lastChunkSeq + 1; answers the stored chunks. */
  appendChunks(
    taskId: number,
    chunks: ReadonlyArray<Pick<StreamChunkRecord, "kind" | "text">>,
    now: number,
  ): Promise<StreamChunkRecord[]>;
  /** Inserts or replaces (keeping its registration order). */
  putRegistration(reg: Omit<RegistrationRecord, "seq">): Promise<RegistrationRecord>;
  deleteRegistration(workflow: string): Promise<void>;
  /**
   * Stores the key unless a stored one of that name was created at or after `expiredBefore`
   * (an older one is replaced). Answers whether it stored it: false means another submit holds
   * the key. The key's uniqueness decides, so two transactions racing cannot both store it.
   * `deleteRun` deletes the keys of the run.
   */
  putIdempotencyKey(record: IdempotencyRecord, expiredBefore: number): Promise<boolean>;
  /** Deletes at most `limit` keys created before `before`, oldest first; answers how many. */
  expireIdempotencyKeys(before: number, limit: number): Promise<number>;
  /** Inserts or replaces the schedule of that name. */
  putSchedule(schedule: ScheduleRecord): Promise<void>;
  /** Removes the schedule and its fires. */
  deleteSchedule(name: string): Promise<void>;
  /**
   * Stores the fire unless one of (schedule, scheduled_at) is stored; answers whether it stored
   * it. The pair's uniqueness decides, so two servers (or a re-fire) cannot both fire one moment.
   */
  insertScheduleFire(fire: ScheduleFireRecord): Promise<boolean>;
}

/**
 * Where several servers share the store, a claim names the claiming server (the attempt's
 * owner) and counts the pool's capacity over every server: it takes no more than `capacity`
 * minus the attempts of `workflows` in progress anywhere, and nothing while the server's own
 * row is gone or its lease has run out.
 */
export interface ClaimScope {
  owner: string;
  capacity: number;
}

/** A server sharing the store, as its row says (times are epoch ms of the database clock). */
export interface ServerRecord {
  id: string;
  host: string;
  pid: number;
  url: string | null;
  started: number;
  heartbeat: number;
  lease_until: number;
}

/** What a shared store hears from the other servers. */
export type ClusterNotice =
  /** Another server committed events up to `last`: read the table after what you published. */
  | { kind: "events"; last: number }
  /** Events another server published without storing them (`run.deleted`). */
  | { kind: "unstored"; events: EventRecord[] }
  /** The notice connection was lost and is back: notices may have been missed, re-read. */
  | { kind: "reconnected" };

/** What a store several servers may share offers beside `Store` (PostgreSQL). */
export interface StoreCluster {
  /**
   * Enters this server: holds its presence (released by the database when the server's
   * connection dies, so a killed server is seen dead at once) and writes its row with a lease of
   * `leaseMs`. The presence is taken before the row is written.
   */
  join(
    server: { id: string; host: string; pid: number; url: string | null },
    leaseMs: number,
  ): Promise<void>;
  /** Renews the lease; false when the row is gone (another server took this one's work). */
  renew(id: string, leaseMs: number): Promise<boolean>;
  /** Live servers (lease not run out), oldest first. */
  servers(): Promise<ServerRecord[]>;
  /** Other servers whose lease has run out or whose presence is gone. */
  deadServers(self: string): Promise<string[]>;
  /** Hears the other servers' notices; answers the function that stops it. */
  listen(listener: (notice: ClusterNotice) => void): () => void;
  /** Tells the other servers about events published here without being stored. */
  announce(events: readonly EventRecord[]): void;
  /** Leaves: deletes the row and lets the presence go. */
  leave(id: string): Promise<void>;
}

export interface Store extends StoreReader {
  /** Present where several servers may share the store (PostgreSQL); absent for SQLite. */
  readonly cluster?: StoreCluster;
  /** Runs `fn` as one serialized transaction; a throw rolls everything back. */
  transact<T>(fn: (tx: StoreWriter) => Promise<T>): Promise<T>;
  /** Reads the schema version (rejects when the store cannot be reached). */
  probe(): Promise<StoreProbe>;
  close(): Promise<void>;
}
