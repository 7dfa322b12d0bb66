// StoreWriter handed to one `transact` callback, over that transaction's connection
// (transaction.ts). Changes to the dispatch list need no lock of their own: the transaction
// holds the schema's write lock from BEGIN on.
//
// Fewer statements a step (each is a round trip on the one writer connection):
// - `getRun` answers from the batch's run cache (run-cache.ts) when the batch has seen the run;
//   every write of `runs` here keeps the cache current or clears it.
// - Writes nobody reads back (`touchRuns`, `staleRequests`) are deferred (deferred.ts): held
//   until a statement that could see them, and folded into the unit's event append (one
//   statement for all of them) when none does. The unit's end sends what is still held.
import type {
  ArrivalRecord,
  ClaimScope,
  EventRecord,
  IdempotencyRecord,
  LogRecord,
  NewEvent,
  NewTask,
  RegistrationRecord,
  RequestRecord,
  RunRecord,
  ScheduleFireRecord,
  ScheduleRecord,
  StoreWriter,
  StreamChunkRecord,
  SubmissionRecord,
  TaskFilter,
  TaskGuard,
  TaskRecord,
} from "../../engine/index.ts";
import * as arrivals from "./arrivals.ts";
import type { BatchIds } from "./batch-ids.ts";
import * as chunks from "./chunks.ts";
import { claimTasks } from "./claims.ts";
import { CountingDb, DeferredWrites, type Table } from "./deferred.ts";
import * as events from "./events.ts";
import * as idempotency from "./idempotency.ts";
import { PgReader } from "./reader.ts";
import * as records from "./records.ts";
import type { RunCache } from "./run-cache.ts";
import * as runs from "./runs.ts";
import * as schedules from "./schedules.ts";
import * as servers from "./servers.ts";
import type { Db } from "./sql.ts";
import * as tasks from "./tasks.ts";

export class PgWriter extends PgReader implements StoreWriter {
  /** The highest event id this callback stored (0: none), told to the other servers. */
  storedUpTo = 0;
  readonly #deferred: DeferredWrites;
  /** The connection itself: for statements that cannot see the deferred writes. */
  readonly #raw: Db;

  /** Counts the statements sent, so a read kept for later knows nothing was written since. */
  readonly #counted: CountingDb;

  constructor(
    connection: Db,
    /** The schema's name: keys of the servers' presence locks (servers.ts). */
    private readonly schema: string,
    private readonly runs: RunCache,
    /** The event and task ids the batch hands out. */
    private readonly ids: BatchIds,
  ) {
    const raw = new CountingDb(connection);
    const deferred = new DeferredWrites(raw);
    // Every statement not listed below sends the deferred writes first.
    super(deferred.flushingDb());
    this.#deferred = deferred;
    this.#raw = raw;
    this.#counted = raw;
  }

  /** Sends the deferred writes on tables `tables` (all with none given), then answers the connection. */
  async #before(...tables: Table[]): Promise<Db> {
    await this.#deferred.flush(tables);
    return this.#raw;
  }

  /** Sends what is still deferred: the callback has ended. */
  flush(): Promise<void> {
    return this.#deferred.flush([]);
  }

  override async getRun(id: string): Promise<RunRecord | null> {
    const cached = this.runs.get(id);
    if (cached !== undefined) return cached;
    const run = await runs.getRun(await this.#before("runs"), id);
    return run && this.runs.put(run);
  }
  async insertRun(run: Omit<RunRecord, "position">): Promise<RunRecord> {
    const db = await this.#before("runs");
    return this.runs.put(await runs.insertRun(db, run, await this.ids.takePositions(1)));
  }
  async insertRuns(list: ReadonlyArray<Omit<RunRecord, "position">>): Promise<RunRecord[]> {
    if (list.length === 0) return [];
    const db = await this.#before("runs");
    const first = await this.ids.takePositions(list.length);
    return (await runs.insertRuns(db, list, first)).map((run) => this.runs.put(run));
  }
  async updateRun(
    id: string,
    patch: Partial<Omit<RunRecord, "id" | "position">>,
  ): Promise<RunRecord> {
    const cached = this.runs.get(id);
    const db = await this.#before("runs");
    if (cached === undefined) return this.runs.put(await runs.updateRun(db, id, patch));
    // The batch has the row as the database holds it: the updated row is known without an
    // answer, so the update is sent and not waited for.
    return this.runs.put(await runs.updateCachedRun(db, cached, patch));
  }
  async touchRuns(ids: readonly string[], now: number): Promise<void> {
    // A run whose row the batch knows to be at `now` already (started or ended by this unit)
    // needs no second update.
    const stale = this.runs.touch(ids, now);
    if (!stale.length) return;
    await this.#deferred.add(runs.touchWrite(stale, now));
  }
  async moveRun(id: string, index: number): Promise<RunRecord> {
    this.runs.clear(); // the runs in between move too
    return runs.moveRun(this.db, id, index);
  }
  async deleteRun(id: string): Promise<void> {
    this.runs.clear();
    await this.ids.dropPositions(await runs.deleteRun(this.db, id));
  }
  async deleteRuns(ids: readonly string[]): Promise<void> {
    this.runs.clear();
    await this.ids.dropPositions(await runs.deleteRuns(this.db, ids));
  }
  /** What the last `hasOutstandingTasks` read of a run with nothing outstanding. */
  #settling: {
    runId: string;
    sent: number;
    tasks?: TaskRecord[];
    arrivals?: ArrivalRecord[];
  } | null = null;

  /** The settling read's `part` of `runId`, once, if no statement was sent since it. */
  #settled<K extends "tasks" | "arrivals">(runId: string, part: K) {
    const s = this.#settling;
    if (s === null || s.runId !== runId || s.sent !== this.#counted.sent) return undefined;
    const value = s[part];
    s[part] = undefined;
    return value;
  }

  override async listTasks(filter: TaskFilter): Promise<TaskRecord[]> {
    const whole = filter.status === undefined && filter.node === undefined;
    const read = whole && filter.run_id !== undefined && this.#settled(filter.run_id, "tasks");
    return read || tasks.listTasks(await this.#before("tasks"), filter);
  }
  override async hasOutstandingTasks(runId: string): Promise<boolean> {
    this.#settling = null;
    const probe = tasks.probeSettle(await this.#before("tasks", "arrivals"), runId);
    // Counted once the probe is sent: a statement sent after it, even before it answers,
    // makes what it read unusable.
    const sent = this.#counted.sent;
    const read = await probe;
    if (read === null) return true;
    this.#settling = { runId, sent, ...read };
    return false;
  }
  override async listArrivals(
    runId: string,
    join?: string,
    fanout?: number,
  ): Promise<ArrivalRecord[]> {
    const read = join === undefined && fanout === undefined && this.#settled(runId, "arrivals");
    return read || arrivals.listArrivals(await this.#before("arrivals"), runId, join, fanout);
  }
  async insertTask(task: NewTask): Promise<TaskRecord> {
    const db = await this.#before("tasks");
    return tasks.insertTask(db, await this.ids.takeTasks(1), task);
  }
  async insertTasks(list: readonly NewTask[]): Promise<TaskRecord[]> {
    if (list.length === 0) return [];
    const db = await this.#before("tasks");
    return tasks.insertTasks(db, await this.ids.takeTasks(list.length), list);
  }
  async updateTask(
    id: number,
    patch: Partial<Omit<TaskRecord, "id" | "run_id">>,
    guard?: TaskGuard,
  ): Promise<TaskRecord | null> {
    // It reads the task's run too (into the run cache).
    const updated = await tasks.updateTask(await this.#before("tasks", "runs"), id, patch, guard);
    if (updated === null) return null;
    this.runs.put(updated.run);
    return updated.task;
  }
  async claimTasks(
    workflows: readonly string[],
    limit: number,
    now: number,
    scope?: ClaimScope,
  ): Promise<TaskRecord[]> {
    const claimed = await claimTasks(
      await this.#before("tasks", "runs"),
      workflows,
      limit,
      now,
      scope,
    );
    return claimed.map(({ task, run }) => {
      this.runs.put(run);
      return task;
    });
  }
  dropServers(ids: readonly string[]): Promise<string[]> {
    return servers.dropServers(this.db, this.schema, ids);
  }
  orphanedTasks(owners: readonly string[] | null): Promise<TaskRecord[]> {
    return servers.orphanedTasks(this.db, owners);
  }
  appendLog(entry: Omit<LogRecord, "id">): Promise<LogRecord> {
    return records.appendLog(this.db, entry);
  }
  insertRequest(request: Omit<RequestRecord, "id">): Promise<RequestRecord> {
    return records.insertRequest(this.db, request);
  }
  updateRequest(id: number, patch: Partial<Omit<RequestRecord, "id">>): Promise<RequestRecord> {
    return records.updateRequest(this.db, id, patch);
  }
  async staleRequests(taskId: number, source?: RequestRecord["source"]): Promise<void> {
    await this.#deferred.add(records.staleWrite(taskId, source));
  }
  insertSubmission(
    submission: Omit<SubmissionRecord, "id" | "agent_call">,
  ): Promise<SubmissionRecord> {
    return records.insertSubmission(this.db, submission);
  }
  markAgentResult(submissionId: number, call: number): Promise<void> {
    return records.markAgentResult(this.db, submissionId, call);
  }
  insertArrival(arrival: ArrivalRecord): Promise<void> {
    return arrivals.insertArrival(this.db, arrival);
  }
  setJoinTask(runId: string, join: string, fanout: number, taskId: number): Promise<void> {
    return arrivals.setJoinTask(this.db, runId, join, fanout, taskId);
  }
  async appendEvents(list: readonly NewEvent[], now: number): Promise<EventRecord[]> {
    if (list.length === 0) return [];
    // The deferred writes go in the same statement (events are on no table they write).
    const counter = await this.ids.takeEvents(list.length);
    const held = this.#deferred.take();
    const stored = await events.appendEvents(this.#raw, list, now, counter, held);
    const last = stored.at(-1);
    if (last?.id != null && last.id > this.storedUpTo) this.storedUpTo = last.id;
    return stored;
  }
  appendChunks(
    taskId: number,
    list: ReadonlyArray<Pick<StreamChunkRecord, "kind" | "text">>,
    now: number,
  ): Promise<StreamChunkRecord[]> {
    return chunks.appendChunks(this.db, taskId, list, now);
  }
  putRegistration(reg: Omit<RegistrationRecord, "seq">): Promise<RegistrationRecord> {
    return arrivals.putRegistration(this.db, reg);
  }
  deleteRegistration(workflow: string): Promise<void> {
    return arrivals.deleteRegistration(this.db, workflow);
  }
  putIdempotencyKey(record: IdempotencyRecord, expiredBefore: number): Promise<boolean> {
    return idempotency.putIdempotencyKey(this.db, record, expiredBefore);
  }
  expireIdempotencyKeys(before: number, limit: number): Promise<number> {
    return idempotency.expireIdempotencyKeys(this.db, before, limit);
  }
  putSchedule(schedule: ScheduleRecord): Promise<void> {
    return schedules.putSchedule(this.db, schedule);
  }
  deleteSchedule(name: string): Promise<void> {
    return schedules.deleteSchedule(this.db, name);
  }
  insertScheduleFire(fire: ScheduleFireRecord): Promise<boolean> {
    return schedules.insertScheduleFire(this.db, fire);
  }
}
