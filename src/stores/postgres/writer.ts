// StoreWriter handed to one `transact` callback, over that transaction's connection
// (transaction.ts). Changes to the dispatch list need no lock of their own: the transaction
// holds the schema's write lock from BEGIN on.
//
// Fewer statements a step (each is a round trip on the one writer connection):
// - `getRun` answers from the batch's run cache (run-cache.ts) when the batch has seen the run;
//   every write of `runs` here keeps the cache current or clears it.
// - Writes nobody reads back (new runs and tasks, a cached run's start, end and `updated`,
//   `staleRequests`) are deferred (deferred.ts): held until a statement that could see them, and
//   folded into the unit's event append (one statement for all of them) when none does. The
//   unit's end sends what is still held.
// - An update of a task that ends its branch answers the settling probe's read too (tasks.ts).
import {
  type ArrivalRecord,
  type ClaimScope,
  type EventRecord,
  type IdempotencyRecord,
  type LogRecord,
  type NewEvent,
  type NewTask,
  type RegistrationRecord,
  type RequestRecord,
  type RunRecord,
  type ScheduleFireRecord,
  type ScheduleRecord,
  type StoreWriter,
  type StreamChunkRecord,
  type SubmissionRecord,
  type TaskFilter,
  type TaskGuard,
  type TaskRecord,
  type TaskUpdate,
  TERMINAL_RUN_STATUSES,
} from "../../engine/index.ts";
import * as arrivals from "./arrivals.ts";
import type { BatchIds } from "./batch-ids.ts";
import * as chunks from "./chunks.ts";
import { claimTasks } from "./claims.ts";
import { CountingDb, DeferredWrites, HELD_RUN_COLUMNS, type Table } from "./deferred.ts";
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
  /** The connection for statements on arrivals alone (they neither read nor write tasks). */
  readonly #quiet: Db;

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
    // What they see first: the held arrivals, and the new runs held (arrivals.run_id).
    const quiet = async () => {
      await deferred.flush(["arrivals"]);
      await deferred.flushNewRuns();
    };
    this.#quiet = raw.quietly({
      run: async (statement, values) => {
        await quiet();
        return raw.run(statement, values);
      },
      write: async (statement, values) => {
        await quiet();
        return raw.write(statement, values);
      },
    });
  }

  /** Sends the deferred writes on tables `tables` (all with none given), then answers the connection. */
  async #before(...tables: Table[]): Promise<Db> {
    await this.#deferred.flush(tables);
    return this.#raw;
  }

  /** Sends what is still deferred: the callback has ended, nothing more is held after it. */
  flush(): Promise<void> {
    return this.#deferred.close();
  }

  override async getRun(id: string): Promise<RunRecord | null> {
    const cached = this.runs.get(id);
    if (cached !== undefined) return cached;
    const run = await runs.getRun(await this.#before("runs"), id);
    return run && this.runs.put(run);
  }
  async insertRun(run: Omit<RunRecord, "position">): Promise<RunRecord> {
    const { write, row } = runs.runInsert(run, await this.ids.takePositions(1));
    await this.#deferred.add(write);
    return this.runs.put(row);
  }
  async insertRuns(list: ReadonlyArray<Omit<RunRecord, "position">>): Promise<RunRecord[]> {
    if (list.length === 0) return [];
    const { write, rows } = runs.runsInsert(list, await this.ids.takePositions(list.length));
    await this.#deferred.add(write);
    return rows.map((run) => this.runs.put(run));
  }
  async updateRun(
    id: string,
    patch: Partial<Omit<RunRecord, "id" | "position">>,
  ): Promise<RunRecord> {
    const cached = this.runs.get(id);
    if (cached !== undefined && Object.keys(patch).every((k) => HELD_RUN_COLUMNS.has(k))) {
      // The batch has the row as the database holds it: the updated row is known without an
      // answer, so the update is held (a run's start, end or touch) and rides in a later
      // statement.
      const row = runs.patched(cached, patch);
      const quietEnd =
        TERMINAL_RUN_STATUSES.includes(row.status) && this.#probed(id, false)?.found === false;
      await this.#deferred.setRun(id, row, cached.status, quietEnd);
      return this.runs.put(row);
    }
    const db = await this.#before("runs");
    if (cached === undefined) return this.runs.put(await runs.updateRun(db, id, patch));
    // Other columns: sent and not waited for.
    return this.runs.put(await runs.updateCachedRun(db, cached, patch));
  }
  async touchRuns(ids: readonly string[], now: number): Promise<void> {
    // A run whose row the batch knows to be at `now` already (started or ended by this unit)
    // needs no second update.
    const stale = this.runs.touch(ids, now);
    if (!stale.length) return;
    await this.#deferred.touchRuns(stale, now);
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
  /**
   * What the last settling probe read of each run (`hasOutstandingTasks`, or the update of a
   * task that ended): whether a task is outstanding (`found`), and else, when `full`, the run's
   * tasks and arrivals; with the statement counts as they were then. A run's new task, held,
   * drops its entry (insertTasks); a statement sent counts against every run's.
   */
  readonly #settling = new Map<
    string,
    {
      sent: number;
      busy: number;
      found: boolean;
      full: boolean;
      tasks?: TaskRecord[];
      arrivals?: ArrivalRecord[];
    }
  >();

  /**
   * The settling read of `runId` if it still holds: for `found` (whether a task is
   * outstanding), if no statement that may write tasks was sent (nor a task of the run held)
   * since; for the lists, if no statement at all was.
   */
  #probed(runId: string, lists: boolean) {
    const s = this.#settling.get(runId);
    if (s === undefined) return null;
    const still = lists ? s.sent === this.#counted.sent : s.busy === this.#counted.busy;
    return still ? s : null;
  }

  /** The settling read's `part` of `runId`, once, if nothing was written since it. */
  #settled<K extends "tasks" | "arrivals">(runId: string, part: K) {
    const s = this.#probed(runId, true);
    if (s === null) return undefined;
    const value = s[part];
    s[part] = undefined;
    return value;
  }

  /** Keeps what the settling probe (or a task update carrying it) read of `runId`. */
  #keepSettling(runId: string, sent: number, busy: number, carried: tasks.Carried): void {
    const read = carried.found ? undefined : carried.read;
    const full = read != null;
    this.#settling.set(runId, { sent, busy, found: carried.found, full, ...read });
  }

  override async listTasks(filter: TaskFilter): Promise<TaskRecord[]> {
    const whole = filter.status === undefined && filter.node === undefined;
    const read = whole && filter.run_id !== undefined && this.#settled(filter.run_id, "tasks");
    return read || tasks.listTasks(await this.#before("tasks"), filter);
  }
  override async hasOutstandingTasks(runId: string): Promise<boolean> {
    // Answered by the update of the task that ended, when nothing was written since that could
    // change it (a task outstanding: no write of tasks; nothing outstanding: no write at all,
    // as the lists that come with it must hold too).
    const found = this.#probed(runId, false);
    if (found?.found) return true;
    if (this.#probed(runId, true)?.full) return false;
    this.#settling.delete(runId);
    const probe = tasks.probeSettle(await this.#before("tasks", "arrivals"), runId);
    // Counted once the probe is sent: a statement sent after it, even before it answers,
    // makes what it read unusable.
    const { sent, busy } = this.#counted;
    const read = await probe;
    this.#keepSettling(runId, sent, busy, read === null ? { found: true } : { found: false, read });
    return read === null;
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
    const [row] = await this.insertTasks([task]);
    return row;
  }
  async insertTasks(list: readonly NewTask[]): Promise<TaskRecord[]> {
    if (list.length === 0) return [];
    const first = await this.ids.takeTasks(list.length);
    const made = list.map((task, i) => tasks.taskRow(first + i, task));
    // What the settling probe read of these runs no longer holds once a task of theirs is
    // written, even before the write goes out; other runs' reads still do.
    for (const task of list) this.#settling.delete(task.run_id);
    this.#deferred.addTasks(made.map((m) => m.held));
    return made.map((m) => m.row);
  }
  async updateTask(
    id: number,
    patch: Partial<Omit<TaskRecord, "id" | "run_id">>,
    guard?: TaskGuard,
    runId?: string,
  ): Promise<TaskRecord | null> {
    // It reads the task's run too (into the run cache), and when the task ends its branch
    // (the engine settles its run next) the settling probe's read.
    const settle = tasks.settleRead(patch);
    await this.#beforeUpdate([id], settle === "full");
    // An update of a task of run `runId` changes nothing of any other run: what the settling
    // probe read of the others still holds after it.
    const scoped = runId !== undefined;
    const db = scoped ? this.#counted.uncounted() : this.#raw;
    const sending = tasks.updateTask(db, id, patch, guard, settle);
    // What it reads is as of its sending: a statement sent after it, even before it answers,
    // counts against it.
    const { sent, busy } = this.#counted;
    if (scoped) this.#settling.delete(runId);
    const updated = await sending;
    if (updated === null) return null;
    if (scoped && updated.task.run_id !== runId) this.#misnamed();
    return this.#updated(updated, sent, busy);
  }
  async updateTasks(updates: readonly TaskUpdate[]): Promise<Array<TaskRecord | null>> {
    // Those of one shape go as one statement (tasks.ts); the others one by one, sent together.
    const shapes = new Map<string, TaskUpdate[]>();
    const alone: TaskUpdate[] = [];
    for (const u of updates) {
      const shape = tasks.shapeOf(u);
      if (shape === null) alone.push(u);
      else if (shapes.has(shape)) shapes.get(shape)!.push(u);
      else shapes.set(shape, [u]);
    }
    const answers = new Map<number, Promise<TaskRecord | null>>();
    for (const list of shapes.values()) {
      if (list.length === 1) alone.push(list[0]);
      else {
        const together = this.#updateTogether(list);
        for (const u of list)
          answers.set(
            u.id,
            together.then((m) => m.get(u.id) ?? null),
          );
      }
    }
    for (const u of alone) answers.set(u.id, this.updateTask(u.id, u.patch, u.guard, u.runId));
    const out = await Promise.all(updates.map((u) => answers.get(u.id)!));
    // What an update read of its run's other tasks left out the updates beside it, whichever
    // statement they went in: no read of a run with several is kept.
    const seen = new Set<string>();
    for (const u of updates) {
      if (seen.has(u.runId)) this.#settling.delete(u.runId);
      seen.add(u.runId);
    }
    return out;
  }
  /** Updates of one shape, in one statement (`tasks.updateTasks`). */
  async #updateTogether(list: readonly TaskUpdate[]): Promise<Map<number, TaskRecord>> {
    const full = list.some((u) => tasks.settleRead(u.patch) === "full");
    await this.#beforeUpdate(
      list.map((u) => u.id),
      full,
    );
    const sending = tasks.updateTasks(this.#counted.uncounted(), list);
    const { sent, busy } = this.#counted;
    for (const u of list) this.#settling.delete(u.runId);
    const updated = await sending;
    const named = new Map(list.map((u) => [u.id, u.runId]));
    // A row of another run than the one named: what was read of any run may have changed.
    if ([...updated.values()].some((x) => x.task.run_id !== named.get(x.task.id))) {
      this.#misnamed();
    }
    const out = new Map<number, TaskRecord>();
    for (const [id, u] of updated) out.set(id, this.#updated(u, sent, busy));
    return out;
  }
  /**
   * Sends what an update of tasks `ids` must come behind: the held arrivals when it answers
   * the settling probe's lists (`full`), and the tasks' own inserts, if held. Other held writes
   * stay held, so that with several outcomes in one unit one statement carries them all: an
   * update of the task's run (what the statement reads of the run is older than it, so the
   * batch's row is kept), new tasks of other runs (the probe reads the task's own run; one of
   * this run's held makes what it read unusable, `#updated`).
   */
  async #beforeUpdate(ids: readonly number[], full: boolean): Promise<void> {
    const tables: Table[] = full ? ["arrivals"] : [];
    if (ids.some((id) => this.#deferred.holdsTask(id))) tables.push("tasks");
    if (tables.length) await this.#deferred.flush(tables);
  }
  /** An update was told the wrong run: it may have changed what was read of any. */
  #misnamed(): void {
    this.#counted.sent += 1;
    this.#settling.clear();
  }
  /** Keeps what an update answered (its run's row, its settling read); answers the task. */
  #updated(updated: tasks.Updated, sent: number, busy: number): TaskRecord {
    const run = updated.task.run_id;
    if (!this.#deferred.holdsRun(run)) this.runs.put(updated.run);
    if (this.#deferred.holdsTaskOf(run)) this.#settling.delete(run);
    else if (updated.carried !== undefined) this.#keepSettling(run, sent, busy, updated.carried);
    return updated.task;
  }
  async claimTasks(
    workflows: readonly string[],
    limit: number,
    now: number,
    scope?: ClaimScope,
  ): Promise<TaskRecord[]> {
    // A held run update the claim would see the same without (a start, a touch, an end the
    // settling probe found nothing outstanding for) stays held for the unit's event append:
    // with several outcomes in one unit, one statement carries every run's.
    await this.#deferred.flush(["tasks", "runs"], (id) => this.#deferred.claimNeutral(id));
    const claimed = await claimTasks(this.#raw, workflows, limit, now, scope);
    return claimed.map(({ task, run }) => {
      // The claim read the run as the database has it; a held update of it is newer.
      if (!this.#deferred.holdsRun(run.id)) this.runs.put(run);
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
    await this.#deferred.addStale(taskId, source);
  }
  insertSubmission(
    submission: Omit<SubmissionRecord, "id" | "agent_call">,
  ): Promise<SubmissionRecord> {
    return records.insertSubmission(this.db, submission);
  }
  markAgentResult(submissionId: number, call: number): Promise<void> {
    return records.markAgentResult(this.db, submissionId, call);
  }
  // Statements on arrivals alone: they leave a settling read's `found` standing.
  override tallyArrivals(runId: string, join: string, fanout: number, index: number) {
    return arrivals.tallyArrivals(this.#quiet, runId, join, fanout, index);
  }
  async insertArrival(arrival: ArrivalRecord): Promise<void> {
    await this.#deferred.add(arrivals.arrivalWrite(arrival));
  }
  setJoinTask(runId: string, join: string, fanout: number, taskId: number): Promise<void> {
    return arrivals.setJoinTask(this.#quiet, runId, join, fanout, taskId);
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
