// Small bodies and responses shared across resources, and the refusal envelope.
import { z } from "zod";
import { ERROR_CODES } from "../errors.ts";
import { doc, int, named } from "./common.ts";

export const ValidationError = named(
  "ValidationError",
  z.object({
    loc: z.array(z.union([z.string(), z.int()])),
    msg: z.string(),
    type: z.string(),
  }),
  'One field-level problem. `loc` starts with where the value came from: "body", "query", "path" or "header".',
);
export type ValidationError = z.infer<typeof ValidationError>;

export const ErrorCode = named(
  "ErrorCode",
  z.enum(ERROR_CODES),
  "Closed vocabulary of refusal codes; clients branch on it.",
);

export const ApiError = named(
  "ApiError",
  z.looseObject({
    error: doc(z.string(), "Human sentence; may be reworded."),
    code: ErrorCode,
    errors: z.array(ValidationError).optional(),
  }),
  "Every refusal: `{error, code, ...extras}`.",
);
export type ApiError = z.infer<typeof ApiError>;

export const Created = named("Created", z.object({ run_id: z.string() }));
export type Created = z.infer<typeof Created>;

export const Ok = named(
  "Ok",
  z.object({
    ok: z.boolean(),
    note: z.string().nullable().optional(),
  }),
);
export type Ok = z.infer<typeof Ok>;

export const LogRef = named("LogRef", z.object({ log_id: int() }));
export type LogRef = z.infer<typeof LogRef>;

export const TaskRef = named("TaskRef", z.object({ task_id: int() }));
export type TaskRef = z.infer<typeof TaskRef>;

export const PositionOut = named("PositionOut", z.object({ position: int() }));
export type PositionOut = z.infer<typeof PositionOut>;

export const LogText = named("LogText", z.object({ text: z.string().min(1) }));
export type LogText = z.infer<typeof LogText>;
