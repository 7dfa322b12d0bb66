// Domain records the engine keeps. Stores persist exactly these shapes; the service layer turns
// them into the HTTP views of `http-api.md`. Times are epoch milliseconds here and become
// ISO-8601 strings only at the edge.

import type { Json } from "../lib/json.ts";

export type { Json };

export const RUN_STATUSES = [
  "queued",
  "running",
  "paused",
  "completed",
  "failed",
  "cancelled",
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const TERMINAL_RUN_STATUSES: readonly RunStatus[] = ["completed", "failed", "cancelled"];

export const TASK_STATUSES = [
  "ready",
  "in_progress",
  "waiting",
  "done",
  "failed",
  "dead_letter",
  "cancelled",
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
/** Statuses of an attempt that is still going (it may yet produce a result or be claimed). */
export const OUTSTANDING: readonly TaskStatus[] = ["ready", "in_progress", "waiting"];

export const ENQUEUE_REASONS = [
  "start",
  "transition",
  "retry",
  "rerun",
  "move",
  "manual_retry",
  "set_status",
  "join",
] as const;
export type EnqueueReason = (typeof ENQUEUE_REASONS)[number];

/** One level of fan-out: branch `index` of `count`, opened by task `fanout`, given `key`. */
export interface BranchFrame {
  count: number;
  fanout: number;
  index: number;
  key: Json;
}

/** Where an attempt came from. */
export interface Lineage {
  reason: EnqueueReason;
  /** The task whose outcome or operation created this one (null for the start task). */
  parent: number | null;
  /** For a join: the fan-out task whose branches arrived. */
  from_task?: number | null;
  /** For a join: the arriving task ids in branch order. */
  arrivals?: number[] | null;
}

export interface RunRecord {
  id: string;
  workflow: string;
  title: string;
  description: string;
  status: RunStatus;
  /** 1-based place in the dispatch list; dense across all runs. */
  position: number;
  created: number;
  updated: number;
  /** Whether any task of the run was ever claimed (decides the status after resume). */
  started: boolean;
  /** The input the run was submitted with; null when none was given. */
  input: Json;
}

export interface TaskRecord {
  id: number;
  run_id: string;
  node: string;
  attempt: number;
  status: TaskStatus;
  priority: number;
  explicit: boolean;
  created: number;
  started: number | null;
  finished: number | null;
  error: string | null;
  payload_present: boolean;
  payload: Json;
  result: Json;
  /** A result was recorded (result may legitimately be null). */
  result_present: boolean;
  terminal: boolean;
  branch: BranchFrame[];
  lineage: Lineage | null;
  stats: Record<string, Json> | null;
  /** Incremented on every claim; a completion must present the claim it was given. */
  claim: number;
  /** sha-256 hex of the attempt's agent token, null when none is live. */
  token_hash: string | null;
  /** Seconds of node-timeout clock already used by earlier in_progress spells of this attempt. */
  used_s: number;
  /** When the attempt last went waiting (for `waited_s`). */
  waiting_since: number | null;
  /** The stack of the error its body threw (where it threw), null when none was given. */
  error_stack: string | null;
  /**
   * A ready attempt is not claimed before this moment (epoch ms): a retry's backoff, or the
   * wake time of a sleep the attempt was in when its server stopped. Null: claimable now.
   */
  not_before: number | null;
  /** While the attempt sleeps (`ctx.sleep`, status `waiting`): when it wakes. Else null. */
  sleep_until: number | null;
  /**
   * The wake time of each `ctx.sleep`/`ctx.sleepUntil` call of the attempt's body, in call order
   * (index 0 is the first call); null when it never slept. A body run again finds them here.
   */
  sleeps: number[] | null;
  /**
   * The server whose claim holds the attempt, where several servers share a store (PostgreSQL);
   * absent where the store has one server, and on a row that is ready again.
   */
  owner?: string | null;
}

export type NewTask = Omit<
  TaskRecord,
  | "id"
  | "status"
  | "started"
  | "finished"
  | "error"
  | "result"
  | "result_present"
  | "terminal"
  | "stats"
  | "claim"
  | "token_hash"
  | "used_s"
  | "waiting_since"
  | "error_stack"
  | "not_before"
  | "sleep_until"
  | "sleeps"
  | "owner"
>;

/** What `insertTask` answers in the fields a NewTask leaves out: ready, unclaimed, unfinished. */
export const NEW_TASK_STATE = {
  status: "ready",
  started: null,
  finished: null,
  error: null,
  result: null,
  result_present: false,
  terminal: false,
  stats: null,
  claim: 0,
  token_hash: null,
  used_s: 0,
  waiting_since: null,
  error_stack: null,
  not_before: null,
  sleep_until: null,
  sleeps: null,
} as const satisfies Omit<TaskRecord, keyof NewTask | "id">;

export type LogAuthor = "agent" | "engine" | "user";
export type LogKind = "deliverable" | "note" | "stats" | "failure";

export interface LogRecord {
  id: number;
  run_id: string;
  node: string;
  task_id: number | null;
  author: LogAuthor;
  kind: LogKind | null;
  text: string;
  created: number;
  /**
   * The operator who wrote the entry (an authenticated operator's note; http.md "Operators");
   * null for the rest. Stores always answer it; a writer may leave it out (null).
   */
  operator?: string | null;
}

export type RequestMode = "options" | "form" | "text";
export interface RequestOption {
  option_id: string;
  name: string;
  kind: string | null;
}

export interface RequestRecord {
  id: number;
  run_id: string;
  task_id: number;
  node: string;
  kind: "permission" | "elicitation" | "question";
  mode: RequestMode;
  source: "agent" | "node";
  /** 1, 2, ... within the attempt for node asks; null for agent asks. */
  ordinal: number | null;
  prompt: string;
  options: RequestOption[] | null;
  schema: Record<string, Json> | null;
  tool_call: Record<string, Json> | null;
  answered_by: "user" | "engine" | null;
  answer: Json;
  /** Set when no attempt is left to consume an answer. */
  stale: boolean;
  created: number;
  answered: number | null;
  /** The operator who answered (as authenticated), null otherwise; always answered by stores. */
  operator?: string | null;
}

export interface SubmissionRecord {
  id: number;
  task_id: number;
  created: number;
  payload: Json;
  /**
   * The `ctx.agent` call of its attempt (1, 2, ... in call order) that resolved with this
   * submission, or null: a body that runs again after a restart gets that call's result back
   * instead of starting its agent again (docs/agents.md, "After a restart").
   */
  agent_call: number | null;
}

/** A branch that reached a join. */
export interface ArrivalRecord {
  run_id: string;
  join: string;
  /** The fan-out task whose frame the arrival closes (0 when the join was reached outside a fan-out). */
  fanout: number;
  index: number;
  count: number;
  task_id: number;
  key: Json;
  value: Json;
  /** The join task enqueued when the last branch arrived, if any. */
  join_task: number | null;
}

export interface StreamChunkRecord {
  task_id: number;
  seq: number;
  kind: "text" | "thought" | "tool_call" | "tool_result" | "notice";
  text: string;
  created: number;
}

export interface RegistrationRecord {
  workflow: string;
  target: string | null;
  pool: string;
  /** Registration order, for the plugin manifest. */
  seq: number;
}

/**
 * An `Idempotency-Key` of a submit: the run it created and what the submit asked, so a retry
 * with the same key answers that run and a different request under it is refused.
 */
export interface IdempotencyRecord {
  key: string;
  workflow: string;
  /** Hash of the submit's canonical JSON body (the service computes it). */
  body_hash: string;
  run_id: string;
  /** Epoch ms of the submit that stored it; the key stops matching a window after. */
  created: number;
}

/** An event before it is stored: the engine builds these inside a transaction. */
export interface NewEvent {
  name: string;
  run_id: string | null;
  task_id: number | null;
  data: Record<string, unknown>;
}

/** The envelope of `http-api.md` "Events"; `id` is null for ephemeral events. */
export interface EventRecord extends NewEvent {
  id: number | null;
  created: number;
}

/** When a schedule's fires were missed while no server ran: fire the latest once, or skip. */
export type ScheduleCatchup = "once" | "skip";

/** A schedule: a cron expression (in an IANA time zone) that submits runs of a workflow. */
export interface ScheduleRecord {
  name: string;
  workflow: string;
  /** Five fields, or six with seconds first (croner's syntax). */
  cron: string;
  /** IANA time zone the cron expression is read in. */
  timezone: string;
  /** The title of every run it submits. */
  title: string;
  /** The input of every run it submits (null: none). */
  input: Json;
  enabled: boolean;
  catchup: ScheduleCatchup;
  /** `config`: from the TOML, synced at start; `api`: created over the HTTP API. */
  source: "config" | "api";
  created: number;
  updated: number;
}

/** One fire of a schedule: unique on (schedule, scheduled_at), stored with the run it made. */
export interface ScheduleFireRecord {
  schedule: string;
  /** The due moment (epoch ms) the fire is for. */
  scheduled_at: number;
  run_id: string;
  fired_at: number;
}
