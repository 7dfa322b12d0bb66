// Turning stored records into the views of http-api.md "Resources and their fields".
// Fields the spec marks "omitted when unset" are left out rather than zero-filled.
import type {
  EventRecord,
  LogRecord,
  RequestRecord,
  StreamChunkRecord,
  SubmissionRecord,
  TaskRecord,
} from "../../engine/index.ts";
import type {
  EventEnvelope,
  LogEntry,
  RequestView,
  StreamChunk,
  SubmissionOut,
  TaskView,
} from "../schemas/index.ts";
import { isoTime } from "./iso-time.ts";

export const iso = isoTime;
export const isoOrNull = (ms: number | null) => (ms == null ? null : iso(ms));

export function taskView(t: TaskRecord): TaskView {
  const view: TaskView = {
    id: t.id,
    run_id: t.run_id,
    node: t.node,
    attempt: t.attempt,
    status: t.status,
    priority: t.priority,
    explicit: t.explicit,
    created: iso(t.created),
    started: isoOrNull(t.started),
    finished: isoOrNull(t.finished),
    error: t.error,
    payload: t.payload_present ? t.payload : null,
    result: t.result_present ? t.result : null,
    terminal: t.terminal,
    branch: t.branch,
    lineage: t.lineage as TaskView["lineage"],
  };
  if (t.stats) view.stats = t.stats;
  if (t.not_before !== null) view.not_before = iso(t.not_before);
  if (t.sleep_until !== null && t.status === "waiting") view.sleep_until = iso(t.sleep_until);
  if (t.owner != null) view.server_id = t.owner;
  return view;
}

export function submissionView(s: SubmissionRecord): SubmissionOut {
  return { id: s.id, task_id: s.task_id, created: iso(s.created), payload: s.payload };
}

export function logView(e: LogRecord): LogEntry {
  const view: LogEntry = {
    id: e.id,
    run_id: e.run_id,
    node: e.node,
    task_id: e.task_id,
    author: e.author,
    text: e.text,
    created: iso(e.created),
  };
  if (e.kind) view.kind = e.kind;
  if (e.operator) view.operator = e.operator;
  return view;
}

export function requestView(r: RequestRecord, now = Date.now()): RequestView {
  return {
    id: r.id,
    run_id: r.run_id,
    task_id: r.task_id,
    node: r.node,
    kind: r.kind,
    mode: r.mode,
    source: r.source,
    prompt: r.prompt,
    options: r.options,
    schema: r.schema,
    tool_call: r.tool_call,
    pending: r.answered_by === null && !r.stale,
    stale: r.answered_by === null && r.stale,
    answer: r.answered_by === null ? null : r.answer,
    answered_by: r.answered_by,
    ...(r.operator ? { operator: r.operator } : {}),
    created: iso(r.created),
    age: Math.max(0, (now - r.created) / 1000),
  };
}

/** The envelope; an ephemeral event (never stored, id null) has no `id` field at all. */
export function eventView(e: EventRecord): EventEnvelope {
  return {
    ...(e.id === null ? {} : { id: e.id }),
    name: e.name,
    created: iso(e.created),
    run_id: e.run_id,
    task_id: e.task_id,
    data: e.data,
  } as EventEnvelope;
}

export function chunkView(c: StreamChunkRecord): StreamChunk {
  return { seq: c.seq, kind: c.kind, text: c.text, created: iso(c.created) };
}
