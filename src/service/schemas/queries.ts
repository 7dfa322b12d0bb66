// Path and query parameters of the routes. Path and query values arrive as strings; these
// schemas convert them and refuse what does not convert (422 with loc ["path"|"query", name]).
import { z } from "zod";
import { MAX_EVENT_NAMES_LENGTH, MAX_RUN_PAGE } from "../limits.ts";
import {
  boolString,
  intString,
  isoInstantInput,
  nameInput,
  numberString,
  RunStatus,
} from "./common.ts";

export const RunPath = z.object({ run_id: nameInput().min(1) });
export const TaskPath = z.object({ task_id: intString() });
export const RequestPath = z.object({ request_id: intString() });
export const WorkflowPath = z.object({ name: nameInput().min(1) });
export const ActionPath = z.object({ wf: nameInput().min(1), name: nameInput().min(1) });
export const AgentRequestPath = z.object({ task_id: intString(), request_id: intString() });

export const RunsQuery = z.object({
  status: RunStatus.optional(),
  workflow: nameInput().optional(),
  q: nameInput().optional().meta({
    description:
      "Only runs whose title contains this text, ignoring case, or whose id starts with it (an exact id included).",
  }),
  ended: boolString().optional().meta({
    description:
      "true: only ended runs (completed, failed, cancelled); false: only runs not ended (queued, running, paused).",
  }),
  created_after: isoInstantInput().optional().meta({
    description:
      "Only runs created at or after this instant (ISO-8601 date-time with an offset, 2026-11-01T00:00:00Z).",
  }),
  created_before: isoInstantInput().optional().meta({
    description:
      "Only runs created strictly before this instant (ISO-8601 date-time with an offset).",
  }),
  sort: z.enum(["position", "created", "updated"]).optional().meta({
    description:
      "`position`: dispatch order (the default); `created`, `updated`: newest first by that time, then by id descending. A cursor pages the sort it was given for.",
  }),
  limit: intString(z.int().min(1).max(MAX_RUN_PAGE)).optional().meta({
    description:
      "At most this many runs; the response's `X-Next-Cursor` header (and `Link` rel=next) then names the next page.",
  }),
  cursor: z
    .string()
    .max(200)
    .optional()
    .meta({ description: "The `X-Next-Cursor` of the previous page (opaque)." }),
});

export const CursorQuery = z.object({
  after: intString().optional(),
  limit: intString(z.int().min(0)).optional(),
});

export const RequestsQuery = z.object({
  pending: boolString().optional(),
  run: nameInput().optional(),
});

export const PersistQuery = z.object({ persist: boolString().optional() });

export const WaitQuery = z.object({ wait: numberString().optional() });

/** `after` may be given empty or as "null", both meaning "no cursor" (live only). */
const nullableCursor = z.preprocess(
  (v) => (v === "" || v === "null" ? null : v),
  intString().nullable(),
);

export const EventsQuery = z.object({
  after: nullableCursor.optional(),
  run: nameInput().optional(),
  names: z.string().max(MAX_EVENT_NAMES_LENGTH).optional(),
  access_token: z.string().optional(),
});
export type EventsQuery = z.infer<typeof EventsQuery>;
