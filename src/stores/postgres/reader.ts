// StoreReader over a `Db`: the read pool for the store itself (committed data only), or one
// transaction's connection for the writer handed to a `transact` callback (its own writes too).
import type {
  ArrivalRecord,
  ArrivalTally,
  EventQuery,
  EventRecord,
  IdempotencyRecord,
  LiveTaskStatus,
  LogRecord,
  OpenRunStatus,
  RegistrationRecord,
  RequestFilter,
  RequestRecord,
  RunCount,
  RunFilter,
  RunRecord,
  RunSelection,
  ScheduleFireRecord,
  ScheduleRecord,
  StoreReader,
  StreamChunkRecord,
  SubmissionRecord,
  TaskFilter,
  TaskRecord,
} from "../../engine/index.ts";
import * as arrivals from "./arrivals.ts";
import * as chunks from "./chunks.ts";
import { nextNotBefore } from "./claims.ts";
import * as counts from "./counts.ts";
import * as events from "./events.ts";
import * as idempotency from "./idempotency.ts";
import * as records from "./records.ts";
import * as runs from "./runs.ts";
import * as schedules from "./schedules.ts";
import type { Db } from "./sql.ts";
import * as tasks from "./tasks.ts";

export class PgReader implements StoreReader {
  protected readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  getRun(id: string): Promise<RunRecord | null> {
    return runs.getRun(this.db, id);
  }
  listRuns(filter?: RunFilter): Promise<RunRecord[]> {
    return runs.listRuns(this.db, filter);
  }
  selectRuns(selection: RunSelection): Promise<RunRecord[]> {
    return runs.selectRuns(this.db, selection);
  }
  countRunsByStatus(): Promise<RunCount[]> {
    return runs.countRunsByStatus(this.db);
  }
  getTask(id: number): Promise<TaskRecord | null> {
    return tasks.getTask(this.db, id);
  }
  listTasks(filter: TaskFilter): Promise<TaskRecord[]> {
    return tasks.listTasks(this.db, filter);
  }
  hasOutstandingTasks(runId: string): Promise<boolean> {
    return tasks.hasOutstandingTasks(this.db, runId);
  }
  findTaskByTokenHash(hash: string): Promise<TaskRecord | null> {
    return tasks.findTaskByTokenHash(this.db, hash);
  }
  listLog(runId: string): Promise<LogRecord[]> {
    return records.listLog(this.db, runId);
  }
  getRequest(id: number): Promise<RequestRecord | null> {
    return records.getRequest(this.db, id);
  }
  listRequests(filter?: RequestFilter): Promise<RequestRecord[]> {
    return records.listRequests(this.db, filter);
  }
  listSubmissions(taskId: number): Promise<SubmissionRecord[]> {
    return records.listSubmissions(this.db, taskId);
  }
  listArrivals(runId: string, join?: string, fanout?: number): Promise<ArrivalRecord[]> {
    return arrivals.listArrivals(this.db, runId, join, fanout);
  }
  tallyArrivals(runId: string, join: string, fanout: number, index: number): Promise<ArrivalTally> {
    return arrivals.tallyArrivals(this.db, runId, join, fanout, index);
  }
  listEvents(query: EventQuery): Promise<EventRecord[]> {
    return events.listEvents(this.db, query);
  }
  lastEventId(): Promise<number> {
    return events.lastEventId(this.db);
  }
  listChunks(taskId: number, after: number, limit: number): Promise<StreamChunkRecord[]> {
    return chunks.listChunks(this.db, taskId, after, limit);
  }
  lastChunkSeq(taskId: number): Promise<number> {
    return chunks.lastChunkSeq(this.db, taskId);
  }
  listRegistrations(): Promise<RegistrationRecord[]> {
    return arrivals.listRegistrations(this.db);
  }
  getIdempotencyKey(key: string): Promise<IdempotencyRecord | null> {
    return idempotency.getIdempotencyKey(this.db, key);
  }
  listSchedules(): Promise<ScheduleRecord[]> {
    return schedules.listSchedules(this.db);
  }
  getSchedule(name: string): Promise<ScheduleRecord | null> {
    return schedules.getSchedule(this.db, name);
  }
  lastScheduleFire(name: string): Promise<ScheduleFireRecord | null> {
    return schedules.lastScheduleFire(this.db, name);
  }
  countRuns(status: OpenRunStatus): Promise<number> {
    return counts.countRuns(this.db, status);
  }
  countTasks(status: LiveTaskStatus): Promise<number> {
    return counts.countTasks(this.db, status);
  }
  countPendingRequests(): Promise<number> {
    return counts.countPendingRequests(this.db);
  }
  countReady(): Promise<Record<string, number>> {
    return counts.countReady(this.db);
  }
  nextNotBefore(workflows: readonly string[], after: number): Promise<number | null> {
    return nextNotBefore(this.db, workflows, after);
  }
}
