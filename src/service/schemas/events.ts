// The event vocabulary (http-api.md "Events") and the envelope every event travels in, both on
// the SSE stream and on the run events page.
import { z } from "zod";
import { doc, isoDate, jsonObject, named } from "./common.ts";

/** The 34 core event names: a closed enumeration (plugin events live under `plugin.`). */
export const EVENT_NAMES = [
  "run.created",
  "run.started",
  "run.updated",
  "run.reordered",
  "run.paused",
  "run.resumed",
  "run.cancelled",
  "run.deleted",
  "run.completed",
  "run.failed",
  "task.enqueued",
  "join.arrived",
  "task.started",
  "task.done",
  "task.failed",
  "task.dead_lettered",
  "task.waiting",
  "task.resumed",
  "task.cancelled",
  "task.moved",
  "task.status_set",
  "task.stream",
  "submission.accepted",
  "submission.rejected",
  "submission.repair",
  "request.opened",
  "request.answered",
  "log.appended",
  "agent.stats",
  "engine.recovered",
  "engine.stopping",
  "workflow.registered",
  "workflow.replaced",
  "workflow.unregistered",
] as const;

/** Events that are never stored: they carry no id and never appear on the events page. */
export const EPHEMERAL_EVENT_NAMES: readonly string[] = ["task.stream"];

export const EventName = named(
  "EventName",
  z.enum(EVENT_NAMES),
  "Closed enumeration of core event names. Besides these, the open namespace " +
    "`plugin.<workflow>.<name>` carries events a workflow publishes (see PluginEventName).",
);
export type EventName = z.infer<typeof EventName>;

export const PLUGIN_EVENT_PATTERN = /^plugin\.[A-Za-z_][A-Za-z0-9_]*\.\S+$/;

export const PluginEventName = named(
  "PluginEventName",
  z.string().regex(PLUGIN_EVENT_PATTERN),
  "`plugin.<workflow>.<name>`; `<workflow>` is the publishing workflow.",
);

export const EventEnvelope = named(
  "EventEnvelope",
  z.object({
    id: doc(
      z.int().nullable().optional(),
      "Stored id; absent for an ephemeral event (task.stream, run.deleted).",
    ),
    name: z.union([EventName, PluginEventName]),
    created: isoDate(),
    run_id: z.string().nullable(),
    task_id: z.int().nullable(),
    data: jsonObject(),
  }),
);
export type EventEnvelope = z.infer<typeof EventEnvelope>;

const optionalNumber = () => z.number().nullable().optional();
const optionalInt = () => z.int().nullable().optional();

export const AgentStats = named(
  "AgentStats",
  z.strictObject({
    node: z.string(),
    attempt: z.int(),
    status: z.enum(["ok", "failed"]),
    duration_s: z.number(),
    cost: optionalNumber(),
    denied_permissions: optionalInt(),
    input_tokens: optionalInt(),
    model: z.string().nullable().optional(),
    output_tokens: optionalInt(),
    repair_turns: optionalInt(),
    session_id: z.string().nullable().optional(),
    tool_calls: optionalInt(),
    total_tokens: optionalInt(),
    reason: z
      .enum([
        "refusal",
        "cancelled",
        "truncated",
        "timeout",
        "shutdown",
        "transport",
        "no_submission",
      ])
      .nullable()
      .optional(),
  }),
  "Data of `agent.stats`: one agent session's measurements.",
);
export type AgentStats = z.infer<typeof AgentStats>;
