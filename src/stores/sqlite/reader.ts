// StoreReader over one connection. The store owns one for reads outside transactions (on the
// read-only connection) and each transaction gets one over the writer connection, so it sees
// its own writes. Statements are prepared once per connection, in `prepareReads`.
import type Database from "better-sqlite3";
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
import { chunkReads } from "./chunks.ts";
import { countReads } from "./counts.ts";
import { eventReads } from "./events.ts";
import { idempotencyReads } from "./idempotency.ts";
import { logReads } from "./log.ts";
import { miscReads } from "./misc.ts";
import { requestReads } from "./requests.ts";
import { runReads } from "./runs.ts";
import { scheduleReads } from "./schedules.ts";
import { taskReads } from "./tasks.ts";

export function prepareReads(db: Database.Database) {
  return {
    runs: runReads(db),
    tasks: taskReads(db),
    log: logReads(db),
    requests: requestReads(db),
    events: eventReads(db),
    chunks: chunkReads(db),
    misc: miscReads(db),
    idempotency: idempotencyReads(db),
    schedules: scheduleReads(db),
    counts: countReads(db),
  };
}

export type ReadQueries = ReturnType<typeof prepareReads>;

export class SqliteReader implements StoreReader {
  protected readonly reads: ReadQueries;

  constructor(reads: ReadQueries) {
    this.reads = reads;
  }

  async getRun(id: string): Promise<RunRecord | null> {
    return this.reads.runs.get(id);
  }
  async listRuns(filter?: RunFilter): Promise<RunRecord[]> {
    return this.reads.runs.list(filter);
  }
  async selectRuns(selection: RunSelection): Promise<RunRecord[]> {
    return this.reads.runs.select(selection);
  }
  async countRunsByStatus(): Promise<RunCount[]> {
    return this.reads.runs.count();
  }
  async getTask(id: number): Promise<TaskRecord | null> {
    return this.reads.tasks.get(id);
  }
  async listTasks(filter: TaskFilter): Promise<TaskRecord[]> {
    return this.reads.tasks.list(filter);
  }
  async hasOutstandingTasks(runId: string): Promise<boolean> {
    return this.reads.tasks.hasOutstanding(runId);
  }
  async findTaskByTokenHash(hash: string): Promise<TaskRecord | null> {
    return this.reads.tasks.findByTokenHash(hash);
  }
  async listLog(runId: string): Promise<LogRecord[]> {
    return this.reads.log.listLog(runId);
  }
  async getRequest(id: number): Promise<RequestRecord | null> {
    return this.reads.requests.get(id);
  }
  async listRequests(filter?: RequestFilter): Promise<RequestRecord[]> {
    return this.reads.requests.list(filter);
  }
  async listSubmissions(taskId: number): Promise<SubmissionRecord[]> {
    return this.reads.log.listSubmissions(taskId);
  }
  async listArrivals(runId: string, join?: string, fanout?: number): Promise<ArrivalRecord[]> {
    return this.reads.misc.listArrivals(runId, join, fanout);
  }
  async tallyArrivals(
    runId: string,
    join: string,
    fanout: number,
    index: number,
  ): Promise<ArrivalTally> {
    return this.reads.misc.tallyArrivals(runId, join, fanout, index);
  }
  async listEvents(query: EventQuery): Promise<EventRecord[]> {
    return this.reads.events.list(query);
  }
  async lastEventId(): Promise<number> {
    return this.reads.events.lastId();
  }
  async listChunks(taskId: number, after: number, limit: number): Promise<StreamChunkRecord[]> {
    return this.reads.chunks.list(taskId, after, limit);
  }
  async lastChunkSeq(taskId: number): Promise<number> {
    return this.reads.chunks.lastSeq(taskId);
  }
  async listRegistrations(): Promise<RegistrationRecord[]> {
    return this.reads.misc.listRegistrations();
  }
  async getIdempotencyKey(key: string): Promise<IdempotencyRecord | null> {
    return this.reads.idempotency.get(key);
  }
  async listSchedules(): Promise<ScheduleRecord[]> {
    return this.reads.schedules.list();
  }
  async getSchedule(name: string): Promise<ScheduleRecord | null> {
    return this.reads.schedules.get(name);
  }
  async lastScheduleFire(name: string): Promise<ScheduleFireRecord | null> {
    return this.reads.schedules.lastFire(name);
  }
  async countRuns(status: OpenRunStatus): Promise<number> {
    return this.reads.counts.runs(status);
  }
  async countTasks(status: LiveTaskStatus): Promise<number> {
    return this.reads.counts.tasks(status);
  }
  async countPendingRequests(): Promise<number> {
    return this.reads.counts.pendingRequests();
  }
  async countReady(): Promise<Record<string, number>> {
    return this.reads.counts.readyByWorkflow();
  }
  async nextNotBefore(workflows: readonly string[], after: number): Promise<number | null> {
    return this.reads.counts.nextNotBefore(workflows, after);
  }
}
