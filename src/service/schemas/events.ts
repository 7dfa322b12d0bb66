// The event vocabulary as the API documents it: the names, the envelope every event travels in
// (on the SSE stream and on the run events page), and each core event's data. All of it comes
// from the engine's map (engine/events.ts); this file only names it for /openapi.json.
//
// Each event's data schema is the component `EventData_<name>` (the event name with `.` turned
// into `_`: `EventData_run_created`, `EventData_task_dead_lettered`), except `agent.stats`,
// whose data keeps its older name `AgentStats`. `EventDataByName` ties them together: an object
// schema with one property per core event name, each a `$ref` to that event's data. No route
// returns it; it exists for clients. Why an object and not a `oneOf` of envelopes: a generator
// such as openapi-typescript turns it into a plain lookup type, `EventDataByName["run.created"]`,
// which a client indexes with the `name` of an envelope it received (`EventEnvelope` keeps
// `data` a free JSON object, so what clients see on the wire is unchanged); a `oneOf` over the
// 34 events would need a literal discriminator that OpenAPI 3.0 can only spell as a one-value
// enum, and gives a union to narrow rather than a type to look up. Plugin events
// (`plugin.<workflow>.<name>`) are left out: their data is any JSON object the workflow chose.
import { z } from "zod";
import {
  AgentStatsData,
  type CoreEventName,
  EPHEMERAL_EVENT_NAMES,
  EVENT_NAMES,
  EVENTS,
  PLUGIN_EVENT_PATTERN,
} from "../../engine/index.ts";
import { doc, isoDate, jsonObject, named } from "./common.ts";

export { EPHEMERAL_EVENT_NAMES, EVENT_NAMES, PLUGIN_EVENT_PATTERN };

export const EventName = named(
  "EventName",
  z.enum(EVENT_NAMES),
  "Closed enumeration of core event names. Besides these, the open namespace " +
    "`plugin.<workflow>.<name>` carries events a workflow publishes (see PluginEventName).",
);
export type EventName = z.infer<typeof EventName>;

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

export const AgentStats = named(
  "AgentStats",
  AgentStatsData,
  "Data of `agent.stats`: one agent session's measurements.",
);
export type AgentStats = z.infer<typeof AgentStats>;

/** The component name of an event's data schema (see the top of this file). */
export function eventDataComponent(name: CoreEventName): string {
  return name === "agent.stats" ? "AgentStats" : `EventData_${name.replaceAll(".", "_")}`;
}

for (const name of EVENT_NAMES) {
  if (name !== "agent.stats") {
    named(eventDataComponent(name), EVENTS[name].data, `Data of \`${name}\`: ${EVENTS[name].doc}`);
  }
}

export const EventDataByName = named(
  "EventDataByName",
  z.strictObject(
    Object.fromEntries(EVENT_NAMES.map((name) => [name, EVENTS[name].data])) as {
      [K in CoreEventName]: (typeof EVENTS)[K]["data"];
    },
  ),
  "Each core event name with the schema of its `data` (components `EventData_<name>`, and " +
    "`AgentStats` for `agent.stats`); a lookup for clients, returned by no route. The data of " +
    "a plugin event (`plugin.<workflow>.<name>`) is any JSON object.",
);
