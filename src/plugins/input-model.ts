// An action's input model: a zod schema (checked with its own safeParse, so refinements and
// defaults apply) or a JSON Schema object (compiled once with ajv). Either way the manifest
// shows a JSON Schema, and a misfit becomes one ValidationIssue per field, under body.input.
import type { ValidateFunction } from "ajv";
import { z } from "zod";
import { excerpt } from "../lib/excerpt.ts";
import { compileJsonSchema, schemaIssues } from "../lib/json-schema.ts";
import type { ValidationIssue } from "../lib/validation-issue.ts";
import type { InputModel } from "./types.ts";

const LOC = ["body", "input"];

interface ZodLike {
  _zod: unknown;
  safeParse(input: unknown, params?: { reportInput?: boolean }): ZodLikeResult;
}
type ZodLikeResult =
  | { success: true; data: unknown }
  | { success: false; error: { issues: z.core.$ZodIssue[] } };

function isZodLike(value: object): value is ZodLike {
  return "_zod" in value && typeof (value as { safeParse?: unknown }).safeParse === "function";
}

/** The model of `input`, null when none is declared, or a sentence saying what is wrong. */
export function inputModelOf(input: unknown): InputModel | null | string {
  if (input === undefined || input === null) return null;
  if (typeof input !== "object" || Array.isArray(input)) {
    return "input must be a zod schema or a JSON Schema object";
  }
  return isZodLike(input) ? zodModel(input) : jsonSchemaModel(input as Record<string, unknown>);
}

function zodModel(schema: ZodLike): InputModel | string {
  let json: Record<string, unknown>;
  try {
    // The form is what a person fills in: the input side, where defaulted fields are optional.
    json = z.toJSONSchema(schema as unknown as z.ZodType, {
      target: "draft-7",
      io: "input",
      unrepresentable: "any",
    }) as Record<string, unknown>;
  } catch (err) {
    return `input has no JSON Schema form: ${(err as Error).message}`;
  }
  return {
    schema: json,
    check(value) {
      const result = schema.safeParse(value, { reportInput: true });
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, issues: result.error.issues.map(zodIssue) };
    },
  };
}

function zodIssue(issue: z.core.$ZodIssue): ValidationIssue {
  const missing = issue.code === "invalid_type" && issue.input === undefined;
  return {
    loc: [...LOC, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
    msg: missing ? "Field required" : excerpt(issue.message),
    type: missing ? "missing" : issue.code,
  };
}

function jsonSchemaModel(schema: Record<string, unknown>): InputModel | string {
  let validate: ValidateFunction;
  try {
    validate = compileJsonSchema(schema, { useDefaults: true });
  } catch (err) {
    return `input is not a usable JSON Schema: ${(err as Error).message}`;
  }
  return {
    schema,
    check(value) {
      // ajv fills defaults in place: work on a copy so the caller's body stays as sent.
      const copy = value === undefined ? null : structuredClone(value);
      if (validate(copy)) return { ok: true, value: copy };
      return { ok: false, issues: schemaIssues(validate.errors, LOC) };
    },
  };
}
