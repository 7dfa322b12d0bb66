// Requests for human input and the operator's answer.
import { z } from "zod";
import { MAX_TEXT_LENGTH } from "../limits.ts";
import {
  AnswerAuthor,
  anyJson,
  doc,
  int,
  isoDate,
  jsonObject,
  named,
  nameInput,
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
    operator: doc(
      z.string().optional(),
      "The operator who answered (as authenticated); present only when an authenticated " +
        "operator did.",
    ),
    created: isoDate(),
    age: z.number(),
  }),
);
export type RequestView = z.infer<typeof RequestView>;

export const Answer = named(
  "Answer",
  z.object({
    option_id: nameInput().nullable().optional(),
    value: doc(
      anyJson().superRefine((v, ctx) => {
        if (typeof v === "string" && v.length > MAX_TEXT_LENGTH) {
          ctx.addIssue({
            code: "too_big",
            origin: "string",
            maximum: MAX_TEXT_LENGTH,
            inclusive: true,
            input: v,
            message: `Too big: a text answer has at most ${MAX_TEXT_LENGTH} characters.`,
          });
        }
      }),
      `Any JSON; a string (a text answer) has at most ${MAX_TEXT_LENGTH} characters.`,
    ),
  }),
  "`option_id` answers an options request; `value` answers a text or form request.",
);
export type Answer = z.infer<typeof Answer>;
