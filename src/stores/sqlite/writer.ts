// StoreWriter handed to one `transact` callback. It is a thin object over statements prepared
// once on the writer connection; `end()` retires it when the transaction finishes, so a
// reference kept past the callback cannot write outside (or into someone else's) transaction.
import type Database from "better-sqlite3";
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
  ScheduleFireRecord,
  ScheduleRecord,
  StoreWriter,
  StreamChunkRecord,
  SubmissionRecord,
  TaskGuard,
  TaskRecord,
  TaskUpdate,
} from "../../engine/index.ts";
import { chunkWrites } from "./chunks.ts";
import { claimWrites } from "./claims.ts";
import { eventWrites } from "./events.ts";
import { HeldTask } from "./held-task.ts";
import { idempotencyWrites } from "./idempotency.ts";
import { logWrites } from "./log.ts";
import { miscWrites } from "./misc.ts";
import { type ReadQueries, SqliteReader } from "./reader.ts";
import { requestWrites } from "./requests.ts";
import { runWrites } from "./runs.ts";
import { scheduleWrites } from "./schedules.ts";
import { taskWrites } from "./tasks.ts";

export function prepareWrites(db: Database.Database) {
  return {
    runs: runWrites(db),
    tasks: taskWrites(db),
    claims: claimWrites(db),
    log: logWrites(db),
    requests: requestWrites(db),
    events: eventWrites(db),
    chunks: chunkWrites(db),
    misc: miscWrites(db),
    idempotency: idempotencyWrites(db),
    schedules: scheduleWrites(db),
    held: new HeldTask(db),
  };
}

export type WriteQueries = ReturnType<typeof prepareWrites>;

export class SqliteWriter extends SqliteReader implements StoreWriter {
  readonly #writes: WriteQueries;
  #live = true;

  /** `reads`: the writer connection's, flushing `writes.held` before each use (held-task.ts). */
  constructor(reads: ReadQueries, writes: WriteQueries) {
    super(reads);
    this.#writes = writes;
  }

  end(): void {
    this.#live = false;
  }

  /** Writes the task held back, if any (before the unit's savepoint is released). */
  flush(): void {
    this.#writes.held.flush();
  }

  /** Every write goes through here (except a task's insert and a claim): the held task first. */
  get #w(): WriteQueries {
    if (!this.#live) throw new Error("store: transaction already finished");
    this.#writes.held.flush();
    return this.#writes;
  }

  // The ready index (ready-index.ts) follows every write to runs and tasks made here.
  override async getRun(id: string): Promise<RunRecord | null> {
    return this.#writes.claims.index.run(id) ?? super.getRun(id);
  }
  override async listArrivals(runId: string, join?: string, fanout?: number) {
    // A store whose workflows never joined has no arrival to read (a run's settling asks).
    if (!this.#writes.misc.anyArrival()) return [];
    return super.listArrivals(runId, join, fanout);
  }
  async insertRun(run: Omit<RunRecord, "position">): Promise<RunRecord> {
    const w = this.#w;
    const record = w.runs.insert(run);
    w.claims.index.runWritten(record);
    return record;
  }
  async insertRuns(runs: ReadonlyArray<Omit<RunRecord, "position">>): Promise<RunRecord[]> {
    const w = this.#w;
    const records = w.runs.insertMany(runs);
    for (const record of records) w.claims.index.runWritten(record);
    return records;
  }
  async updateRun(id: string, patch: Partial<Omit<RunRecord, "id" | "position">>) {
    const w = this.#w;
    const record = w.runs.update(id, patch, w.claims.index.knownRun(id));
    w.claims.index.runWritten(record);
    return record;
  }
  async touchRuns(ids: readonly string[], now: number): Promise<void> {
    const w = this.#w;
    for (const id of ids) {
      // Settling or starting the run in this unit already wrote it.
      if (w.claims.index.knownRun(id)?.updated === now) continue;
      w.runs.touch(id, now);
      w.claims.index.runTouched(id, now);
    }
  }
  // Both renumber other runs' positions: the index is reloaded rather than followed.
  async moveRun(id: string, index: number): Promise<RunRecord> {
    const w = this.#w;
    w.claims.index.drop();
    return w.runs.move(id, index);
  }
  async deleteRun(id: string): Promise<void> {
    const w = this.#w;
    w.claims.index.drop();
    w.runs.remove(id);
  }
  async deleteRuns(ids: readonly string[]): Promise<void> {
    const w = this.#w;
    w.claims.index.drop();
    w.runs.removeMany(ids);
  }
  // Held back (held-task.ts): the unit's next statement writes it, or its claim below.
  async insertTask(task: NewTask): Promise<TaskRecord> {
    if (!this.#live) throw new Error("store: transaction already finished");
    const w = this.#writes;
    const record = w.tasks.hold(task, w.held);
    w.claims.index.taskWritten(record);
    return record;
  }
  async insertTasks(tasks: readonly NewTask[]): Promise<TaskRecord[]> {
    const w = this.#w;
    w.held.forgetNextId();
    const records = w.tasks.insertMany(tasks);
    for (const record of records) w.claims.index.taskWritten(record);
    return records;
  }
  async updateTask(
    id: number,
    patch: Partial<Omit<TaskRecord, "id" | "run_id">>,
    guard?: TaskGuard,
  ): Promise<TaskRecord | null> {
    const w = this.#w;
    const record = w.tasks.update(id, patch, guard, w.claims.index.going(id));
    if (record) w.claims.index.taskWritten(record);
    return record;
  }
  async updateTasks(updates: readonly TaskUpdate[]): Promise<Array<TaskRecord | null>> {
    const out: Array<TaskRecord | null> = [];
    for (const u of updates) out.push(await this.updateTask(u.id, u.patch, u.guard));
    return out;
  }
  async claimTasks(workflows: readonly string[], limit: number, now: number) {
    if (!this.#live) throw new Error("store: transaction already finished");
    return this.#writes.claims.claim(workflows, limit, now, this.#writes.held);
  }
  async appendLog(entry: Omit<LogRecord, "id">): Promise<LogRecord> {
    return this.#w.log.appendLog(entry);
  }
  async insertRequest(request: Omit<RequestRecord, "id">): Promise<RequestRecord> {
    return this.#w.requests.insert(request);
  }
  async updateRequest(id: number, patch: Partial<Omit<RequestRecord, "id">>) {
    return this.#w.requests.update(id, patch);
  }
  async staleRequests(taskId: number, source?: RequestRecord["source"]): Promise<void> {
    this.#w.requests.stale(taskId, source);
  }
  async insertSubmission(
    submission: Omit<SubmissionRecord, "id" | "agent_call">,
  ): Promise<SubmissionRecord> {
    return this.#w.log.insertSubmission(submission);
  }
  async markAgentResult(submissionId: number, call: number): Promise<void> {
    this.#w.log.markAgentResult(submissionId, call);
  }
  async insertArrival(arrival: ArrivalRecord): Promise<void> {
    this.#w.misc.insertArrival(arrival);
  }
  async setJoinTask(runId: string, join: string, fanout: number, taskId: number) {
    this.#w.misc.setJoinTask(runId, join, fanout, taskId);
  }
  async appendEvents(events: readonly NewEvent[], now: number): Promise<EventRecord[]> {
    return this.#w.events.append(events, now);
  }
  async appendChunks(
    taskId: number,
    chunks: ReadonlyArray<Pick<StreamChunkRecord, "kind" | "text">>,
    now: number,
  ): Promise<StreamChunkRecord[]> {
    return this.#w.chunks.append(taskId, chunks, now);
  }
  async putRegistration(reg: Omit<RegistrationRecord, "seq">): Promise<RegistrationRecord> {
    return this.#w.misc.putRegistration(reg);
  }
  async deleteRegistration(workflow: string): Promise<void> {
    this.#w.misc.deleteRegistration(workflow);
  }
  async putIdempotencyKey(record: IdempotencyRecord, expiredBefore: number): Promise<boolean> {
    return this.#w.idempotency.put(record, expiredBefore);
  }
  async expireIdempotencyKeys(before: number, limit: number): Promise<number> {
    return this.#w.idempotency.expire(before, limit);
  }
  async putSchedule(schedule: ScheduleRecord): Promise<void> {
    this.#w.schedules.put(schedule);
  }
  async deleteSchedule(name: string): Promise<void> {
    this.#w.schedules.remove(name);
  }
  async insertScheduleFire(fire: ScheduleFireRecord): Promise<boolean> {
    return this.#w.schedules.fire(fire);
  }
}
