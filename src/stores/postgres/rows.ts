// Rows -> domain records. Columns are named like the record fields (but for arrivals' `join` and
// `index`, which are SQL keywords); the pools parse bigint and json columns (connection.ts), so
// a row holds numbers and parsed JSON already. Each record is built field by field, so a
// column the domain does not know never leaks into a record.
import type {
  ArrivalRecord,
  EventRecord,
  LogRecord,
  RegistrationRecord,
  RequestRecord,
  RunRecord,
  StreamChunkRecord,
  SubmissionRecord,
  TaskRecord,
} from "../../engine/index.ts";
import type { Row } from "./sql.ts";

export function toRun(r: Row): RunRecord {
  return {
    id: r.id,
    workflow: r.workflow,
    title: r.title,
    description: r.description,
    status: r.status,
    position: r.position,
    created: r.created,
    updated: r.updated,
    started: r.started,
    input: r.input ?? null,
  };
}

export function toTask(r: Row): TaskRecord {
  return {
    id: r.id,
    run_id: r.run_id,
    node: r.node,
    attempt: r.attempt,
    status: r.status,
    priority: r.priority,
    explicit: r.explicit,
    created: r.created,
    started: r.started,
    finished: r.finished,
    error: r.error,
    payload_present: r.payload_present,
    payload: r.payload,
    result: r.result,
    result_present: r.result_present,
    terminal: r.terminal,
    branch: r.branch,
    lineage: r.lineage,
    stats: r.stats,
    claim: r.claim,
    token_hash: r.token_hash,
    used_s: r.used_s,
    waiting_since: r.waiting_since,
    error_stack: r.error_stack ?? null,
    not_before: r.not_before,
    sleep_until: r.sleep_until,
    sleeps: r.sleeps,
    // Only where a server holds the claim: a store without owners (SQLite) leaves it out.
    ...(r.owner == null ? {} : { owner: r.owner }),
  };
}

export function toLog(r: Row): LogRecord {
  return {
    id: r.id,
    run_id: r.run_id,
    node: r.node,
    task_id: r.task_id,
    author: r.author,
    kind: r.kind,
    text: r.text,
    created: r.created,
    operator: r.operator ?? null,
  };
}

export function toRequest(r: Row): RequestRecord {
  return {
    id: r.id,
    run_id: r.run_id,
    task_id: r.task_id,
    node: r.node,
    kind: r.kind,
    mode: r.mode,
    source: r.source,
    ordinal: r.ordinal,
    prompt: r.prompt,
    options: r.options,
    schema: r.schema,
    tool_call: r.tool_call,
    answered_by: r.answered_by,
    answer: r.answer,
    stale: r.stale,
    created: r.created,
    answered: r.answered,
    operator: r.operator ?? null,
  };
}

export function toSubmission(r: Row): SubmissionRecord {
  return {
    id: r.id,
    task_id: r.task_id,
    created: r.created,
    payload: r.payload,
    agent_call: r.agent_call ?? null,
  };
}

export function toEvent(r: Row): EventRecord {
  return {
    id: r.id,
    name: r.name,
    run_id: r.run_id,
    task_id: r.task_id,
    data: r.data,
    created: r.created,
  };
}

export function toChunk(r: Row): StreamChunkRecord {
  return { task_id: r.task_id, seq: r.seq, kind: r.kind, text: r.text, created: r.created };
}

export function toRegistration(r: Row): RegistrationRecord {
  return { workflow: r.workflow, target: r.target, pool: r.pool, seq: r.seq };
}

export function toArrival(r: Row): ArrivalRecord {
  return {
    run_id: r.run_id,
    join: r.join_name,
    fanout: r.fanout,
    index: r.branch_index,
    count: r.count,
    task_id: r.task_id,
    key: r.key,
    value: r.value,
    join_task: r.join_task,
  };
}
