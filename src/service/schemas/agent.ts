// The agent surface (task token): the task as an agent sees it, asks and answer polls.
import { z } from "zod";
import { MAX_OPTIONS } from "../limits.ts";
import {
  AnswerAuthor,
  anyJson,
  int,
  jsonObject,
  lineInput,
  named,
  nameInput,
  RequestMode,
  textInput,
} from "./common.ts";
import { LogEntry } from "./log.ts";

export const AgentTask = named(
  "AgentTask",
  z.object({
    task_id: int(),
    run_id: z.string(),
    workflow: z.string(),
    node: z.string(),
    attempt: int(),
    title: z.string(),
    description: z.string(),
    log: z.array(LogEntry),
    input: anyJson(),
    output_schema: jsonObject().nullable().optional(),
  }),
);
export type AgentTask = z.infer<typeof AgentTask>;

export const AskOption = named(
  "AskOption",
  z.object({
    option_id: nameInput().min(1),
    name: lineInput().nullable().optional(),
    kind: nameInput().nullable().optional(),
  }),
);
export type AskOption = z.infer<typeof AskOption>;

export const Ask = named(
  "Ask",
  z.object({
    prompt: textInput().min(1),
    options: z
      .array(z.union([nameInput(), AskOption]))
      .max(MAX_OPTIONS)
      .nullable()
      .optional(),
    schema: jsonObject().nullable().optional(),
  }),
);
export type Ask = z.infer<typeof Ask>;

export const AskOut = named("AskOut", z.object({ request_id: int(), mode: RequestMode }));
export type AskOut = z.infer<typeof AskOut>;

export const AnswerPoll = named(
  "AnswerPoll",
  z.object({
    request_id: int(),
    answered: z.boolean(),
    answer: anyJson(),
    answered_by: AnswerAuthor.nullable().optional(),
  }),
  "Until answered, `answer` and `answered_by` are absent.",
);
export type AnswerPoll = z.infer<typeof AnswerPoll>;
