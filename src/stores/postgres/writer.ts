// StoreWriter handed to one `transact` callback, over that transaction's connection
// (transaction.ts). Changes to the dispatch list take the list lock first (runs.ts), once per
// callback: an advisory lock taken inside a savepoint is released when it rolls back.
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
  TaskGuard,
  TaskRecord,
} from "../../engine/index.ts";
import * as arrivals from "./arrivals.ts";
import * as chunks from "./chunks.ts";
import { claimTasks } from "./claims.ts";
import * as events from "./events.ts";
import * as idempotency from "./idempotency.ts";
import { PgReader } from "./reader.ts";
import * as records from "./records.ts";
import * as runs from "./runs.ts";
import * as schedules from "./schedules.ts";
import * as servers from "./servers.ts";
import type { Db } from "./sql.ts";
import * as tasks from "./tasks.ts";

export class PgWriter extends PgReader implements StoreWriter {
  #listLocked = false;
  /** The highest event id this callback stored (0: none), told to the other servers. */
  storedUpTo = 0;

  constructor(
    db: Db,
    /** The schema's name: keys of the servers' presence locks (servers.ts). */
    private readonly schema: string,
  ) {
    super(db);
  }

  async #lockList(): Promise<void> {
    if (this.#listLocked) return;
    await runs.lockList(this.db);
    this.#listLocked = true;
  }

  async insertRun(run: Omit<RunRecord, "position">): Promise<RunRecord> {
    await this.#lockList();
    return runs.insertRun(this.db, run);
  }
  async insertRuns(list: ReadonlyArray<Omit<RunRecord, "position">>): Promise<RunRecord[]> {
    await this.#lockList();
    return runs.insertRuns(this.db, list);
  }
  updateRun(id: string, patch: Partial<Omit<RunRecord, "id" | "position">>): Promise<RunRecord> {
    return runs.updateRun(this.db, id, patch);
  }
  touchRuns(ids: readonly string[], now: number): Promise<void> {
    return runs.touchRuns(this.db, ids, now);
  }
  async moveRun(id: string, index: number): Promise<RunRecord> {
    await this.#lockList();
    return runs.moveRun(this.db, id, index);
  }
  async deleteRun(id: string): Promise<void> {
    await this.#lockList();
    return runs.deleteRun(this.db, id);
  }
  async deleteRuns(ids: readonly string[]): Promise<void> {
    await this.#lockList();
    return runs.deleteRuns(this.db, ids);
  }
  insertTask(task: NewTask): Promise<TaskRecord> {
    return tasks.insertTask(this.db, task);
  }
  insertTasks(list: readonly NewTask[]): Promise<TaskRecord[]> {
    return tasks.insertTasks(this.db, list);
  }
  updateTask(
    id: number,
    patch: Partial<Omit<TaskRecord, "id" | "run_id">>,
    guard?: TaskGuard,
  ): Promise<TaskRecord | null> {
    return tasks.updateTask(this.db, id, patch, guard);
  }
  claimTasks(
    workflows: readonly string[],
    limit: number,
    now: number,
    scope?: ClaimScope,
  ): Promise<TaskRecord[]> {
    return claimTasks(this.db, workflows, limit, now, scope);
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
    const stored = await events.appendEvents(this.db, list, now);
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
