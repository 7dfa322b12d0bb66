// The event vocabulary, in one place: every core event name with the shape of its `data`, which
// of them are never stored, and the open `plugin.<workflow>.<name>` namespace. The shapes are zod
// schemas so that one source gives the TypeScript type `Work.emit` checks each call against, the
// JSON Schema components of /openapi.json (service/schemas/events.ts names them) and the
// validation test/engine/events.test.ts runs on the events a real engine emits. Nothing here is
// checked at runtime on the commit path: emitting stays a push onto a list.
//
// Each shape is written as the emitting code writes it: a field that is always present but may
// be null is `.nullable()`; `.optional()` marks a field the code leaves out (only AgentStats has
// such fields: what an agent never reported stays absent). Objects are strict, so a field added
// at an emit site without being added here fails the test.
import { z } from "zod";
import { ENQUEUE_REASONS, type Json, RUN_STATUSES, TASK_STATUSES } from "./domain.ts";

const id = () => z.int();
const ids = () => z.array(z.int());
const runStatus = () => z.enum(RUN_STATUSES);
const taskStatus = () => z.enum(TASK_STATUSES);
/** Any JSON value (a run's output). */
const anyJson = () => z.unknown();
const entry = <S extends z.ZodType>(doc: string, data: S) => ({ doc, data });

/**
 * `operator`: the name of the operator whose request emitted the event (http.md, "Operators").
 * Only the events an operator's action names carry it (`ATTRIBUTED_EVENT_NAMES`), and only when
 * an authenticated operator asked: the engine's and agents' events, and those of a server
 * without auth, have no such field.
 */
const operator = () => z.string().optional();
const BY_OPERATOR = " `operator` names the operator who asked, when one did.";

/** One fan-out level of the enqueued task's branch, as events carry it (no `key`). */
const Frame = z.strictObject({ count: z.int(), fanout: id(), index: z.int() });

// A function, not a shared constant: each event's schema must be an instance of its own, since
// the service registers each one under its own OpenAPI component name.
const registration = () =>
  z.strictObject({ pool: z.string(), target: z.string().nullable(), workflow: z.string() });

const optionalNumber = () => z.number().nullable().optional();
const optionalInt = () => z.int().nullable().optional();

/** `agent.stats`: one agent session's measurements (docs/agents.md, "Stats"). */
export const AgentStatsData = z.strictObject({
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
});

/**
 * Every core event: `doc` says when it is emitted, `data` is the shape of its data. The key
 * order is the order of the `EventName` enumeration clients see.
 */
export const EVENTS = {
  "run.created": entry(
    `A run was submitted (its start task's \`task.enqueued\` follows).${BY_OPERATOR}`,
    z.strictObject({
      position: z.int(),
      title: z.string(),
      workflow: z.string(),
      operator: operator(),
    }),
  ),
  "run.started": entry(
    "The run's first attempt was claimed.",
    z.strictObject({ node: z.string(), task_id: id() }),
  ),
  "run.updated": entry(
    "An operator edited the run, or an operation re-opened an ended run: `changed` holds the " +
      `fields that changed, with their new values.${BY_OPERATOR}`,
    z.strictObject({
      changed: z.strictObject({
        title: z.string().optional(),
        description: z.string().optional(),
        status: runStatus().optional(),
      }),
      operator: operator(),
    }),
  ),
  "run.reordered": entry(
    `The run moved in the dispatch list (1-based places).${BY_OPERATOR}`,
    z.strictObject({ position: z.int(), previous: z.int(), operator: operator() }),
  ),
  "run.paused": entry(
    `The run was paused.${BY_OPERATOR}`,
    z.strictObject({ operator: operator() }),
  ),
  "run.resumed": entry(
    `The run was resumed.${BY_OPERATOR}`,
    z.strictObject({ operator: operator() }),
  ),
  "run.cancelled": entry(
    `The run was cancelled; \`cancelled_tasks\` are the attempts it stopped.${BY_OPERATOR}`,
    z.strictObject({ cancelled_tasks: ids(), operator: operator() }),
  ),
  "run.deleted": entry(
    "The run was deleted. Published, never stored (its rows are gone). `reason` is " +
      "`retention` when the server's retention deleted it (`[server] retain`), absent when an " +
      `operator did.${BY_OPERATOR}`,
    z.strictObject({
      title: z.string(),
      workflow: z.string(),
      reason: z.enum(["retention"]).optional(),
      operator: operator(),
    }),
  ),
  "run.completed": entry(
    "Nothing is left to do and nothing failed unresolved: `output` is the terminal task's " +
      "result, or the list of the terminal tasks' results when there are several.",
    z.strictObject({
      node: z.string(),
      output: anyJson(),
      task_id: id(),
      terminal_tasks: ids(),
    }),
  ),
  "run.failed": entry(
    "The run ended failed: an attempt dead-lettered unresolved, or a join could not complete " +
      "(`code` `join_incomplete`).",
    z.strictObject({
      error: z.string(),
      node: z.string(),
      task_id: id(),
      code: z.enum(["join_incomplete"]).nullable(),
    }),
  ),
  "task.enqueued": entry(
    "An attempt was enqueued. `from_task` is the fan-out task for a join, else the parent " +
      "task (null for the start task); `arrivals` are a join's arriving task ids in branch " +
      `order.${BY_OPERATOR}`,
    z.strictObject({
      attempt: z.int(),
      node: z.string(),
      payload_present: z.boolean(),
      reason: z.enum(ENQUEUE_REASONS),
      branch: z.array(Frame),
      from_task: id().nullable(),
      arrivals: ids().nullable(),
      operator: operator(),
    }),
  ),
  "join.arrived": entry(
    "A branch reached a join; `late` when its frame's join task was already enqueued.",
    z.strictObject({
      join: z.string(),
      fanout_task: id(),
      index: z.int(),
      count: z.int(),
      arrived: z.int(),
      late: z.boolean(),
    }),
  ),
  "task.started": entry(
    "An attempt was claimed and its body starts.",
    z.strictObject({ attempt: z.int(), node: z.string() }),
  ),
  "task.done": entry(
    "An attempt succeeded: `terminal` when its node ended the branch, else the edges it took.",
    z.strictObject({
      attempt: z.int(),
      node: z.string(),
      terminal: z.boolean(),
      transitions: z.array(z.string()),
    }),
  ),
  "task.failed": entry(
    "An attempt failed; `retry_task_id` is the retry enqueued for it, if any, and `retry_at` " +
      "when that retry becomes claimable (present only when its node has a backoff).",
    z.strictObject({
      attempt: z.int(),
      node: z.string(),
      error: z.string(),
      retryable: z.boolean(),
      will_retry: z.boolean(),
      retry_task_id: id().nullable(),
      retry_at: z.string().optional(),
    }),
  ),
  "task.dead_lettered": entry(
    "A failed attempt will not be retried (right after its `task.failed`).",
    z.strictObject({ attempt: z.int(), node: z.string(), error: z.string() }),
  ),
  "task.waiting": entry(
    "An attempt parked on an open request and gave its pool slot back.",
    z.strictObject({ node: z.string(), request_id: id() }),
  ),
  "task.sleeping": entry(
    "An attempt sleeps (`ctx.sleep`, `ctx.sleepUntil`; `ordinal` counts its sleeps in call " +
      "order) until `until`, and gave its pool slot back; `task.resumed` follows when it wakes.",
    z.strictObject({ node: z.string(), ordinal: z.int(), until: z.string() }),
  ),
  "task.resumed": entry(
    "A waiting attempt resumes: `request_id` is the request answered last (null when none " +
      "was left to answer), `waited_s` the seconds it waited.",
    z.strictObject({ node: z.string(), request_id: id().nullable(), waited_s: z.number() }),
  ),
  "task.cancelled": entry(
    `An attempt was cancelled; \`from\` is the status it had.${BY_OPERATOR}`,
    z.strictObject({
      from: taskStatus(),
      node: z.string(),
      reason: z.enum(["cancel", "move", "delete", "set_status"]),
      operator: operator(),
    }),
  ),
  "task.moved": entry(
    `An operator moved an attempt's payload to node \`to\`, enqueued as \`new_task_id\`.${BY_OPERATOR}`,
    z.strictObject({ new_task_id: id(), node: z.string(), to: z.string(), operator: operator() }),
  ),
  "task.status_set": entry(
    `An operator set an attempt's status.${BY_OPERATOR}`,
    z.strictObject({
      from: taskStatus(),
      node: z.string(),
      to: z.enum(["ready", "cancelled", "dead_letter"]),
      operator: operator(),
    }),
  ),
  "task.stream": entry(
    "Transcript chunks `seq_from`..`seq_to` of an agent session were stored. Published, never " +
      "stored.",
    z.strictObject({ seq_from: z.int(), seq_to: z.int() }),
  ),
  "submission.accepted": entry(
    "An agent's submission fitted its output model and was stored.",
    z.strictObject({ node: z.string(), submission_id: id() }),
  ),
  "submission.rejected": entry(
    "An agent's submission did not fit its output model; `errors` as in a 422 `validation`.",
    z.strictObject({
      node: z.string(),
      errors: z.array(
        z.strictObject({
          loc: z.array(z.union([z.string(), z.int()])),
          msg: z.string(),
          type: z.string(),
        }),
      ),
    }),
  ),
  "submission.repair": entry(
    "The runner asks the agent again (repair turn `turn`) for a valid submission.",
    z.strictObject({
      node: z.string(),
      reason: z.enum(["rejected", "nothing_submitted"]),
      turn: z.int(),
    }),
  ),
  "request.opened": entry(
    "A request opened (a node's `ctx.ask` or an agent's ask); `ordinal` numbers a node's asks " +
      "within the attempt and is null for an agent's.",
    z.strictObject({
      kind: z.enum(["permission", "elicitation", "question"]),
      mode: z.enum(["options", "form", "text"]),
      node: z.string(),
      ordinal: z.int().nullable(),
      request_id: id(),
      source: z.enum(["agent", "node"]),
    }),
  ),
  "request.answered": entry(
    "A request was answered, by a person (`user`) or by the agent permission policy " +
      `(\`engine\`); \`option_id\` is the chosen option, null for a form or text answer.${BY_OPERATOR}`,
    z.strictObject({
      author: z.enum(["user", "engine"]),
      option_id: z.string().nullable(),
      request_id: id(),
      operator: operator(),
    }),
  ),
  "log.appended": entry(
    `An entry was appended to the run's work log; \`preview\` is the start of its text.${BY_OPERATOR}`,
    z.strictObject({
      author: z.enum(["agent", "engine", "user"]),
      kind: z.enum(["deliverable", "note", "stats", "failure"]).nullable(),
      log_id: id(),
      node: z.string(),
      preview: z.string(),
      operator: operator(),
    }),
  ),
  "agent.stats": entry("An agent session ended; its measurements.", AgentStatsData),
  "engine.recovered": entry(
    "Attempts left in progress by an earlier server, or orphaned by a workflow's removal and " +
      "found when it is registered again, were made ready again. Where several servers share " +
      "the store, `server_id` names the server whose attempts they were (dead, or stopping).",
    z.strictObject({ task_ids: ids(), server_id: z.string().optional() }),
  ),
  "engine.stopping": entry(
    "The server is stopping; `task_ids` are the attempts it interrupts.",
    z.strictObject({ task_ids: ids() }),
  ),
  "workflow.registered": entry("A workflow was registered.", registration()),
  "workflow.replaced": entry("A registered workflow was replaced.", registration()),
  "workflow.unregistered": entry(
    "A workflow was removed; `task_ids` are its attempts that were in flight, `requeued` " +
      "those of them that were in progress, stopped and put back to ready.",
    z.strictObject({ requeued: ids(), task_ids: ids(), workflow: z.string() }),
  ),
  "schedule.fired": entry(
    "A schedule fired: the run it submitted for its due moment `scheduled_at` (epoch ms) is the " +
      "event's run.",
    z.strictObject({ schedule: z.string(), scheduled_at: z.number(), workflow: z.string() }),
  ),
  "schedule.skipped": entry(
    "A schedule's due moment passed without a run: its workflow is not registered " +
      "(`unknown_workflow`) or the run's input did not pass the submit (`rejected`).",
    z.strictObject({
      schedule: z.string(),
      scheduled_at: z.number(),
      workflow: z.string(),
      reason: z.enum(["unknown_workflow", "rejected"]),
      message: z.string(),
    }),
  ),
} as const;

export type CoreEventName = keyof typeof EVENTS;

/** The core event names, in the order of `EVENTS`. */
export const EVENT_NAMES = Object.keys(EVENTS) as [CoreEventName, ...CoreEventName[]];

/**
 * Events that are never stored, so they carry no id: `task.stream` goes straight onto the bus
 * (agents/chunk-writer.ts), `run.deleted` through `Work.emitUnstored`.
 */
export const EPHEMERAL_EVENT_NAMES = [
  "task.stream",
  "run.deleted",
] as const satisfies readonly CoreEventName[];
export type EphemeralEventName = (typeof EPHEMERAL_EVENT_NAMES)[number];

/** The open namespace a workflow publishes in (`ctx.publish`, a plugin's `ctx.publish`). */
export type PluginEventName = `plugin.${string}.${string}`;

/** `plugin.<workflow>.<name>` with a workflow identifier and a name without whitespace. */
export const PLUGIN_EVENT_PATTERN = /^plugin\.[A-Za-z_][A-Za-z0-9_]*\.\S+$/;

/** Data of a plugin event: any JSON object the workflow chose. */
export type PluginEventData = { [key: string]: Json };

export type EventName = CoreEventName | PluginEventName;

/** The data an event named `K` carries. */
export type EventData<K extends EventName> = K extends CoreEventName
  ? z.output<(typeof EVENTS)[K]["data"]>
  : PluginEventData;

/**
 * The events that name an operator's act, and so carry `operator` when an authenticated operator
 * asked for it (the unit of work adds it: `Work.operator`). What follows from the act (a run
 * that settles, an attempt that starts) is the engine's and carries none.
 */
export const ATTRIBUTED_EVENT_NAMES = [
  "run.created",
  "run.updated",
  "run.reordered",
  "run.paused",
  "run.resumed",
  "run.cancelled",
  "run.deleted",
  "task.enqueued",
  "task.cancelled",
  "task.moved",
  "task.status_set",
  "request.answered",
  "log.appended",
] as const satisfies readonly CoreEventName[];

/** Names a unit of work stores: every event but the ephemeral ones. */
export type StoredEventName = Exclude<CoreEventName, EphemeralEventName> | PluginEventName;
