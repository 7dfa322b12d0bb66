// The operator use cases, one method per endpoint of http-api.md. The HTTP layer (src/http/)
// and the MCP layer are thin adapters over this interface: they parse and validate with the
// zod schemas of ./schemas/, call a method, and render the result or the ServiceError it threw.
import type {
  Answer,
  BulkOut,
  BulkRuns,
  Created,
  EditRun,
  EventEnvelope,
  FailureGroup,
  GraphOut,
  HealthOut,
  LogEntry,
  LogRef,
  LogText,
  Move,
  NewSchedule,
  Ok,
  Position,
  PositionOut,
  ReadyOut,
  RejectedSubmission,
  RequestView,
  Rerun,
  RunCounts,
  RunDetail,
  RunExplain,
  RunSummary,
  ScheduleOut,
  SchedulePatch,
  SetStatus,
  SourceOut,
  StreamOut,
  TaskDetail,
  TaskError,
  TaskExplain,
  TaskRef,
  WorkflowOut,
} from "./schemas/index.ts";

export interface RunListQuery {
  status?: RunSummary["status"];
  workflow?: string;
  /** Case-insensitive substring of the title, or the id's prefix. */
  q?: string;
  /** true: only ended runs; false: only runs not ended. */
  ended?: boolean;
  /** ISO-8601 instants: created at or after, strictly before. */
  created_after?: string;
  created_before?: string;
  /** Dispatch order (default), or newest first by a time. */
  sort?: "position" | "created" | "updated";
  /** A page of at most this many runs. */
  limit?: number;
  /** Where the previous page ended (its `next_cursor`). */
  cursor?: string;
}

/** A page of the run list, and the cursor of the next one (null on the last page). */
export interface RunPage {
  runs: RunSummary[];
  next_cursor: string | null;
}

export interface PageQuery {
  after?: number;
  limit?: number;
}

export interface RequestListQuery {
  pending?: boolean;
  run?: string;
}

/**
 * Who asks: the authenticated operator's name (http.md, "Operators"), recorded on what the
 * write changes; absent or null when nobody authenticated (auth off) or a plugin asks.
 */
export type Operator = string | null | undefined;

/** Every write below takes the operator who asks as its last, optional argument. */
export interface OperatorService {
  health(): Promise<HealthOut>;
  /**
   * Whether this server can take work now: its store answers, at the schema version this build
   * expects, and it is not stopping. Rejects with 503 `conflict` otherwise.
   */
  ready(): Promise<ReadyOut>;
  /** When the server started (Me.started_at). */
  readonly startedAt: Date;

  listWorkflows(): Promise<WorkflowOut[]>;

  /** Schedules by name, with their next and last fire. */
  listSchedules(): Promise<ScheduleOut[]>;
  getSchedule(name: string): Promise<ScheduleOut>;
  createSchedule(body: NewSchedule): Promise<ScheduleOut>;
  updateSchedule(name: string, body: SchedulePatch): Promise<ScheduleOut>;
  deleteSchedule(name: string): Promise<Ok>;

  getWorkflow(name: string): Promise<WorkflowOut>;
  /**
   * The module text and node lines of a registered workflow (404 `not_found` when they cannot
   * be produced). Optional so that adapters over other services need not offer it; the route
   * answers 404 without it.
   */
  workflowSource?(name: string): Promise<SourceOut>;
  /** The workflow's failed attempts grouped by message, most frequent first. */
  workflowFailures(name: string): Promise<FailureGroup[]>;

  submitRun(
    workflow: string,
    body: { title: string; description?: string; input?: unknown },
    operator?: Operator,
  ): Promise<Created>;
  /**
   * Several submits of one workflow in one transaction (http.md "Batch submit"): every item is
   * checked first, and a misfit anywhere queues none (422, each issue under its item's index).
   */
  submitRuns(
    workflow: string,
    bodies: ReadonlyArray<{ title: string; description?: string; input?: unknown }>,
    operator?: Operator,
  ): Promise<Created[]>;
  /**
   * A submit under an `Idempotency-Key` (http.md "Idempotent submits"): within the window the
   * same key with the same workflow and body answers the run made first (`replayed`); a key
   * used with another workflow or body is refused (409 `conflict`).
   */
  submitRunOnce(
    workflow: string,
    body: { title: string; description?: string; input?: unknown },
    idempotencyKey: string,
    operator?: Operator,
  ): Promise<{ created: Created; replayed: boolean }>;
  listRuns(query: RunListQuery): Promise<RunSummary[]>;
  listRunsPage(query: RunListQuery): Promise<RunPage>;
  countRuns(): Promise<RunCounts>;
  getRun(runId: string): Promise<RunDetail>;
  editRun(runId: string, body: EditRun, operator?: Operator): Promise<RunDetail>;
  deleteRun(runId: string, operator?: Operator): Promise<void>;
  /**
   * Cancels, deletes or retries the failed attempts of many runs (http.md "Operations in
   * bulk"): each run by its single operation's rules, refusals answered per run.
   */
  bulkRuns(body: BulkRuns, operator?: Operator): Promise<BulkOut>;
  cancelRun(runId: string, operator?: Operator): Promise<Ok>;
  pauseRun(runId: string, operator?: Operator): Promise<Ok>;
  resumeRun(runId: string, operator?: Operator): Promise<Ok>;
  positionRun(runId: string, body: Position, operator?: Operator): Promise<PositionOut>;
  rerun(runId: string, body: Rerun, operator?: Operator): Promise<TaskRef>;
  runEvents(runId: string, query: PageQuery): Promise<EventEnvelope[]>;
  runGraph(runId: string): Promise<GraphOut>;
  /** Why the run's tasks are (not) running (docs/http.md, "Explain"). */
  explainRun(runId: string): Promise<RunExplain>;
  runLog(runId: string): Promise<LogEntry[]>;
  appendRunLog(runId: string, body: LogText, operator?: Operator): Promise<LogRef>;
  runRequests(runId: string): Promise<RequestView[]>;

  getTask(taskId: number): Promise<TaskDetail>;
  moveTask(taskId: number, body: Move, operator?: Operator): Promise<TaskRef>;
  retryTask(taskId: number, operator?: Operator): Promise<TaskRef>;
  setTaskStatus(taskId: number, body: SetStatus, operator?: Operator): Promise<Ok>;
  taskStream(taskId: number, query: PageQuery): Promise<StreamOut>;
  /** Why the task is (not) running (docs/http.md, "Explain"). */
  explainTask(taskId: number): Promise<TaskExplain>;
  /** The attempt's rejected agent submissions, oldest first. */
  taskRejections(taskId: number): Promise<RejectedSubmission[]>;
  /** The attempt's error with the stack where its body threw. */
  taskError(taskId: number): Promise<TaskError>;

  listRequests(query: RequestListQuery): Promise<RequestView[]>;
  getRequest(requestId: number): Promise<RequestView>;
  answerRequest(requestId: number, body: Answer, operator?: Operator): Promise<RequestView>;
}
