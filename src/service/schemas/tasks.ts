// Tasks (one attempt of one node), their accepted submissions, transcript chunks and bodies.
import { z } from "zod";
import {
  anyJson,
  ChunkKind,
  doc,
  int,
  isoDate,
  jsonObject,
  named,
  nameInput,
  TaskStatus,
} from "./common.ts";
import { ValidationError } from "./refs.ts";

export const BranchFrame = named(
  "BranchFrame",
  z.object({
    count: doc(int(), "Branches the fan-out opened."),
    fanout: doc(int(), "Task whose return value fanned out."),
    index: doc(int(), "Zero-based."),
    key: doc(anyJson(), "Payload that branch was given."),
  }),
);
export type BranchFrame = z.infer<typeof BranchFrame>;

export const TaskView = named(
  "TaskView",
  z.object({
    id: int(),
    run_id: z.string(),
    node: z.string(),
    attempt: int(),
    status: TaskStatus,
    priority: int(),
    explicit: z.boolean(),
    created: isoDate(),
    started: isoDate().nullable().optional(),
    finished: isoDate().nullable().optional(),
    error: z.string().nullable().optional(),
    payload: anyJson(),
    result: anyJson(),
    terminal: z.boolean(),
    branch: z.array(BranchFrame).optional(),
    lineage: jsonObject().nullable().optional(),
    stats: jsonObject().nullable().optional(),
    not_before: doc(
      isoDate().optional(),
      "Not claimed before this moment: a retry waiting out its node's backoff, or an attempt " +
        "whose sleep a restart interrupted. Absent when unset.",
    ),
    sleep_until: doc(
      isoDate().optional(),
      "While the attempt sleeps (`ctx.sleep`, status `waiting`): when it wakes. Absent otherwise.",
    ),
    server_id: doc(
      z.string().optional(),
      "Where several servers share a PostgreSQL store: the server whose claim holds (or held) " +
        "the attempt (see `GET /api/health`). Absent on SQLite and on an attempt never claimed.",
    ),
  }),
  "One attempt of one node. It never carries a token.",
);
export type TaskView = z.infer<typeof TaskView>;

export const SubmissionOut = named(
  "SubmissionOut",
  z.object({
    id: int(),
    task_id: int(),
    created: isoDate(),
    payload: anyJson(),
  }),
);
export type SubmissionOut = z.infer<typeof SubmissionOut>;

export const RejectedSubmission = named(
  "RejectedSubmission",
  z.object({
    event_id: doc(int(), "The `submission.rejected` event that recorded it."),
    created: isoDate(),
    errors: doc(z.array(ValidationError), "Why it did not fit the output model."),
  }),
  "An agent's submission that did not fit its output model (nothing of it was stored but this).",
);
export type RejectedSubmission = z.infer<typeof RejectedSubmission>;

export const TaskError = named(
  "TaskError",
  z.object({
    task_id: int(),
    error: doc(z.string().nullable(), "The one-line error, as `TaskView.error`."),
    stack: doc(
      z.string().nullable(),
      "The stack of the error the body threw (where it threw); null when the attempt did not " +
        "fail, threw a value without one, or failed before stacks were kept.",
    ),
  }),
);
export type TaskError = z.infer<typeof TaskError>;

export const TaskDetail = named(
  "TaskDetail",
  TaskView.extend({ submissions: z.array(SubmissionOut) }),
);
export type TaskDetail = z.infer<typeof TaskDetail>;

export const StreamChunk = named(
  "StreamChunk",
  z.object({
    seq: int(),
    kind: ChunkKind,
    text: z.string(),
    created: isoDate(),
  }),
);
export type StreamChunk = z.infer<typeof StreamChunk>;

export const StreamOut = named(
  "StreamOut",
  z.object({
    chunks: z.array(StreamChunk),
    last_seq: int(),
    live: z.boolean(),
  }),
);
export type StreamOut = z.infer<typeof StreamOut>;

export const Move = named("Move", z.object({ node: nameInput().min(1) }));
export type Move = z.infer<typeof Move>;

export const SetStatus = named(
  "SetStatus",
  z.object({ status: z.enum(["ready", "cancelled", "dead_letter"]) }),
);
export type SetStatus = z.infer<typeof SetStatus>;
