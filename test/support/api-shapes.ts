// Field-by-field checks of the resources and events as http-api.md tables state them.
// A type ending in `?` is nullable: null or absent. `any!` must be present, any value.
import { expect } from "vitest";
import type { Envelope } from "./sse.ts";

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|\+00:00)$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function checkType(value: unknown, type: string, where: string): void {
  if (type.endsWith("?")) {
    if (value !== null && value !== undefined) checkType(value, type.slice(0, -1), where);
    return;
  }
  const ok: Record<string, (v: any) => boolean> = {
    int: (v) => Number.isInteger(v),
    num: (v) => typeof v === "number",
    str: (v) => typeof v === "string",
    bool: (v) => typeof v === "boolean",
    date: (v) => typeof v === "string" && ISO_UTC.test(v),
    ulid: (v) => typeof v === "string" && ULID.test(v),
    obj: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
    "any!": (v) => v !== undefined,
    any: () => true,
    "int[]": (v) => Array.isArray(v) && v.every(Number.isInteger),
    "str[]": (v) => Array.isArray(v) && v.every((s: unknown) => typeof s === "string"),
    "obj[]": (v) => Array.isArray(v),
  };
  expect(ok[type]?.(value), `${where}: ${JSON.stringify(value)} is not ${type}`).toBe(true);
}

export function checkFields(
  value: Record<string, unknown>,
  fields: Record<string, string>,
  where: string,
): void {
  expect(value, where).toBeTypeOf("object");
  for (const [key, type] of Object.entries(fields)) checkType(value[key], type, `${where}.${key}`);
}

export const RUN_SUMMARY = {
  id: "ulid",
  workflow: "str",
  title: "str",
  status: "str",
  position: "int",
  created: "date",
  updated: "date",
  current_nodes: "str[]?",
  pending_requests: "int?",
  unregistered: "bool?",
};
export const RUN_DETAIL = {
  ...RUN_SUMMARY,
  description: "str?",
  output: "any",
  outputs: "obj[]?",
  tasks: "obj[]?",
};
export const TASK_VIEW = {
  id: "int",
  run_id: "ulid",
  node: "str",
  attempt: "int",
  status: "str",
  priority: "int",
  explicit: "bool",
  created: "date",
  started: "date?",
  finished: "date?",
  error: "str?",
  payload: "any",
  result: "any",
  terminal: "bool",
  branch: "obj[]?",
  lineage: "obj?",
  stats: "obj?",
};
export const LOG_ENTRY = {
  id: "int",
  run_id: "ulid",
  node: "str",
  task_id: "int?",
  author: "str",
  kind: "str?",
  text: "str",
  created: "date",
};
export const RUN_STATUSES = ["queued", "running", "paused", "completed", "failed", "cancelled"];
export const TASK_STATUSES = [
  "ready",
  "in_progress",
  "waiting",
  "done",
  "failed",
  "dead_letter",
  "cancelled",
];
export const CODES = [
  "not_found",
  "conflict",
  "forbidden",
  "unauthorized",
  "validation",
  "invalid_option",
  "already_answered",
  "stale_request",
  "graph_error",
  "unknown_workflow",
  "unknown_node",
  "payload_too_large",
  "plugin_error",
  "workflow_load_failed",
  "unknown_pool",
  "registration_unavailable",
  "persist_failed",
];

const FRAMES = "obj[]";
export const EVENT_DATA: Record<string, Record<string, string>> = {
  "run.created": { position: "int", title: "str", workflow: "str" },
  "run.started": { node: "str", task_id: "int" },
  "run.updated": { changed: "obj" },
  "run.reordered": { position: "int", previous: "int" },
  "run.paused": {},
  "run.resumed": {},
  "run.cancelled": { cancelled_tasks: "int[]" },
  "run.deleted": { title: "str", workflow: "str" },
  "run.completed": { node: "str", output: "any!", task_id: "int", terminal_tasks: "int[]" },
  "run.failed": { error: "str", node: "str", task_id: "int", code: "str?" },
  "task.enqueued": {
    attempt: "int",
    node: "str",
    payload_present: "bool",
    reason: "str",
    branch: FRAMES,
    from_task: "int?",
    arrivals: "int[]?",
  },
  "join.arrived": {
    join: "str",
    fanout_task: "int",
    index: "int",
    count: "int",
    arrived: "int",
    late: "bool",
  },
  "task.started": { attempt: "int", node: "str" },
  "task.done": { attempt: "int", node: "str", terminal: "bool", transitions: "str[]" },
  "task.failed": {
    attempt: "int",
    node: "str",
    error: "str",
    retryable: "bool",
    will_retry: "bool",
    retry_task_id: "int?",
  },
  "task.dead_lettered": { attempt: "int", node: "str", error: "str" },
  "task.waiting": { node: "str", request_id: "int" },
  "task.resumed": { node: "str", request_id: "int", waited_s: "num" },
  "task.cancelled": { from: "str", node: "str", reason: "str" },
  "task.moved": { new_task_id: "int", node: "str", to: "str" },
  "task.status_set": { from: "str", node: "str", to: "str" },
  "task.stream": { seq_from: "int", seq_to: "int" },
  "request.opened": {
    kind: "str",
    mode: "str",
    node: "str",
    ordinal: "int?",
    request_id: "int",
    source: "str",
  },
  "request.answered": { author: "str", option_id: "str?", request_id: "int" },
  "log.appended": { author: "str", kind: "str?", log_id: "int", node: "str", preview: "str" },
  "engine.recovered": { task_ids: "int[]" },
  "engine.stopping": { task_ids: "int[]" },
  "workflow.registered": { pool: "str", target: "str?", workflow: "str" },
  "workflow.replaced": { pool: "str", target: "str?", workflow: "str" },
  "workflow.unregistered": { requeued: "int[]", task_ids: "int[]", workflow: "str" },
};
const ENUMS: Record<string, Record<string, string[]>> = {
  "task.enqueued": {
    reason: ["start", "transition", "retry", "rerun", "move", "manual_retry", "set_status", "join"],
  },
  "task.cancelled": { reason: ["cancel", "move", "delete", "set_status"] },
  "request.answered": { author: ["user", "engine"] },
  "run.failed": { code: ["join_incomplete"] },
};
const NO_RUN = [
  "engine.recovered",
  "engine.stopping",
  "workflow.registered",
  "workflow.replaced",
  "workflow.unregistered",
];

/** Checks one envelope: its own fields, then its data against the Events table. */
export function checkEnvelope(e: Envelope, stored: boolean): void {
  const where = `${e.name}#${e.id}`;
  checkFields(
    e as any,
    { created: "date", name: "str", data: "obj", run_id: "str?", task_id: "int?" },
    where,
  );
  if (stored) checkType(e.id, "int", `${where}.id`);
  else expect(e.id ?? null, `${where} is ephemeral`).toBeNull();
  if (NO_RUN.includes(e.name)) expect(e.run_id ?? null, `${where}.run_id`).toBeNull();
  if (e.name.startsWith("plugin.")) return;
  const fields = EVENT_DATA[e.name];
  expect(fields, `${e.name} is in the closed vocabulary`).toBeDefined();
  checkFields(e.data, fields, `${where}.data`);
  for (const [key, values] of Object.entries(ENUMS[e.name] ?? {})) {
    if (e.data[key] !== null && e.data[key] !== undefined)
      expect(values, `${where}.${key}`).toContain(e.data[key]);
  }
  if (e.name === "task.enqueued" || e.name === "run.completed") {
    for (const frame of e.data.branch ?? [])
      checkFields(frame, { count: "int", fanout: "int", index: "int" }, where);
  }
}

/** Checks a refusal body: status, code, and on validation the `errors` list. */
export function checkError(
  reply: { status: number; body: any },
  status: number,
  code?: string,
): void {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status);
  checkFields(reply.body ?? {}, { error: "str", code: "str" }, `error ${status}`);
  expect(CODES).toContain(reply.body.code);
  if (code) expect(reply.body.code).toBe(code);
  if (reply.body.code === "validation") {
    expect(
      Array.isArray(reply.body.errors) && reply.body.errors.length > 0,
      "validation carries errors",
    ).toBe(true);
    for (const err of reply.body.errors) {
      checkFields(err, { msg: "str", type: "str" }, "ValidationError");
      expect(
        Array.isArray(err.loc) &&
          err.loc.every((p: unknown) => ["string", "number"].includes(typeof p)),
      ).toBe(true);
    }
  }
}
