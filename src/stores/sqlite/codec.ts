// Row <-> record conversion. Column names equal record field names, so one table per record
// type says how each field is stored: as is, as 0/1, or as JSON text. The `Columns` mapped type
// makes the compiler check that every field of a record has a stored column.
import type {
  EventRecord,
  LogRecord,
  RegistrationRecord,
  RequestRecord,
  RunRecord,
  StreamChunkRecord,
  SubmissionRecord,
  TaskRecord,
} from "../../engine/domain.ts";

/** plain: TEXT/INTEGER/REAL as is; bool: INTEGER 0/1; json: TEXT holding JSON. */
export type ColumnKind = "plain" | "bool" | "json";
export type Columns<R> = { readonly [K in keyof R]-?: ColumnKind };
export type Row = Record<string, unknown>;

export interface Codec<R> {
  readonly columns: ReadonlySet<string>;
  decode(row: Row): R;
  decodeOrNull(row: Row | undefined): R | null;
  /** Encodes the given fields for named parameters; `undefined` means "not given". */
  encode(fields: Partial<R>): Row;
  /** Encodes every column for an insert; a missing field becomes NULL (JSON `null`, 0). */
  encodeAll(fields: Partial<R>): Row;
}

export function encodeValue(kind: ColumnKind, value: unknown): unknown {
  if (kind === "bool") return value ? 1 : 0;
  if (kind === "json") return JSON.stringify(value === undefined ? null : value);
  return value === undefined ? null : value;
}

function decodeValue(kind: ColumnKind, value: unknown): unknown {
  if (kind === "bool") return value === 1;
  if (kind === "json") return value === null ? null : JSON.parse(value as string);
  return value;
}

export function makeCodec<R>(spec: Columns<R>): Codec<R> {
  // Entries computed once: decoding runs for every row of every hot query.
  const entries = Object.entries(spec) as Array<[string, ColumnKind]>;
  const decode = (row: Row): R => {
    const out: Row = {};
    for (const [name, kind] of entries) out[name] = decodeValue(kind, row[name]);
    return out as R;
  };
  return {
    columns: new Set(entries.map(([name]) => name)),
    decode,
    decodeOrNull: (row) => (row === undefined ? null : decode(row)),
    encode(fields) {
      const out: Row = {};
      const given = fields as Row;
      for (const [name, kind] of entries) {
        if (given[name] !== undefined) out[name] = encodeValue(kind, given[name]);
      }
      return out;
    },
    encodeAll(fields) {
      const out: Row = {};
      const given = fields as Row;
      for (const [name, kind] of entries) out[name] = encodeValue(kind, given[name]);
      return out;
    },
  };
}

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
});

export const taskCodec = makeCodec<TaskRecord>({
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
});

export const submissionCodec = makeCodec<SubmissionRecord>({
  id: "plain",
  task_id: "plain",
  created: "plain",
  payload: "json",
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
