// How each record is stored, one entry per field (see codec.ts). The mapped type makes the
// compiler insist on an entry for every field, so a field added to a record cannot be
// silently dropped by the store.
import type {
  EventRecord,
  LogRecord,
  RegistrationRecord,
  RequestRecord,
  RunRecord,
  StreamChunkRecord,
  SubmissionRecord,
  TaskRecord,
} from "../../engine/index.ts";
import { makeCodec } from "./codec.ts";

export const runCodec = makeCodec<RunRecord>({
  id: "plain",
  workflow: "plain",
  title: "plain",
  description: "plain",
  status: "plain",
  position: "plain",
  created: "plain",
  updated: "plain",
  started: "bool",
  input: "nullableJson",
});

// A SQLite store has one server: its claims have no owner.
export const taskCodec = makeCodec<Omit<TaskRecord, "owner">>({
  id: "plain",
  run_id: "plain",
  node: "plain",
  attempt: "plain",
  status: "plain",
  priority: "plain",
  explicit: "bool",
  created: "plain",
  started: "plain",
  finished: "plain",
  error: "plain",
  payload_present: "bool",
  payload: "json",
  result: "json",
  result_present: "bool",
  terminal: "bool",
  branch: "json",
  lineage: "json",
  stats: "json",
  claim: "plain",
  token_hash: "plain",
  used_s: "plain",
  waiting_since: "plain",
  error_stack: "plain",
  not_before: "plain",
  sleep_until: "plain",
  sleeps: "nullableJson",
});

export const logCodec = makeCodec<LogRecord>({
  id: "plain",
  run_id: "plain",
  node: "plain",
  task_id: "plain",
  author: "plain",
  kind: "plain",
  text: "plain",
  created: "plain",
  operator: "plain",
});

export const requestCodec = makeCodec<RequestRecord>({
  id: "plain",
  run_id: "plain",
  task_id: "plain",
  node: "plain",
  kind: "plain",
  mode: "plain",
  source: "plain",
  ordinal: "plain",
  prompt: "plain",
  options: "json",
  schema: "json",
  tool_call: "json",
  answered_by: "plain",
  answer: "json",
  stale: "bool",
  created: "plain",
  answered: "plain",
  operator: "plain",
});

export const submissionCodec = makeCodec<SubmissionRecord>({
  id: "plain",
  task_id: "plain",
  created: "plain",
  payload: "json",
  agent_call: "plain",
});

export const eventCodec = makeCodec<EventRecord>({
  id: "plain",
  name: "plain",
  run_id: "plain",
  task_id: "plain",
  data: "json",
  created: "plain",
});

export const chunkCodec = makeCodec<StreamChunkRecord>({
  task_id: "plain",
  seq: "plain",
  kind: "plain",
  text: "plain",
  created: "plain",
});

export const registrationCodec = makeCodec<RegistrationRecord>({
  workflow: "plain",
  target: "plain",
  pool: "plain",
  seq: "plain",
});
