// Requests for human input and the operator's answer.
import { z } from "zod";
import {
  AnswerAuthor,
  anyJson,
  int,
  isoDate,
  jsonObject,
  named,
  RequestKind,
  RequestMode,
  RequestSource,
} from "./common.ts";

export const RequestOption = named(
  "RequestOption",
  z.object({
    option_id: z.string(),
    name: z.string(),
    kind: z.string().nullable().optional(),
  }),
);
export type RequestOption = z.infer<typeof RequestOption>;

export const RequestView = named(
  "RequestView",
  z.object({
    id: int(),
    run_id: z.string(),
    task_id: int(),
    node: z.string(),
    kind: RequestKind,
    mode: RequestMode,
    source: RequestSource,
    prompt: z.string(),
    options: z.array(RequestOption).nullable().optional(),
    schema: jsonObject().nullable().optional(),
    tool_call: jsonObject().nullable().optional(),
    pending: z.boolean(),
    stale: z.boolean(),
    answer: anyJson(),
    answered_by: AnswerAuthor.nullable().optional(),
    created: isoDate(),
    age: z.number(),
  }),
);
export type RequestView = z.infer<typeof RequestView>;

export const Answer = named(
  "Answer",
  z.object({
    option_id: z.string().nullable().optional(),
    value: anyJson(),
  }),
  "`option_id` answers an options request; `value` answers a text or form request.",
);
export type Answer = z.infer<typeof Answer>;
