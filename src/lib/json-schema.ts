// JSON Schema as the service reads it from its callers: an action's input model, an agent's
// output model, a form of `ctx.ask` or of an agent's ask. One compiler for all of them, so a
// schema means the same thing wherever it is declared, and one mapping of ajv's errors to
// ValidationErrors (`loc`, `msg`, `type`).
//
// Every schema here comes from outside the service's own code, and whoever answers a form or
// submits a value is another party again, so compiling and validating must stay cheap whatever
// the schema says:
// - a schema is bounded (nesting and size, checkSchemaBounds) before ajv sees it;
// - `pattern` and `patternProperties` run on RE2, whose matching is linear in the input: no
//   pattern can backtrack (ECMAScript's engine takes exponential time on `^(a|a)*$`). RE2 has
//   no lookaround and no backreferences, so a schema using them is refused when compiled;
// - of ajv-formats' checks, `url` is the one whose regular expression backtracks (quadratic
//   in its input), so it only runs on strings of a plausible URL's length (safe-formats.ts).
//
// Shared (lib/) because its callers sit in different layers: the service (forms, agents'
// output models), the plugins' input models and the agent runner; it needs nothing of theirs.
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import RE2 from "re2";
import { excerpt } from "./excerpt.ts";
import { MAX_JSON_DEPTH, MAX_SCHEMA_LENGTH } from "./limits.ts";
import { boundUrlFormat } from "./safe-formats.ts";
import type { ValidationIssue } from "./validation-issue.ts";

const addFormats = addFormatsModule as unknown as <T>(ajv: T) => T;
const compilers = new Map<string, Ajv>();

/** ajv's regular-expression hook: RE2 instead of RegExp (`code` is for ajv's standalone mode). */
const linearRegExp = Object.assign((pattern: string, flags: string) => new RE2(pattern, flags), {
  code: 'require("re2")',
});

function compilerFor(draft2020: boolean, useDefaults: boolean): Ajv {
  const key = `${draft2020}:${useDefaults}`;
  let ajv = compilers.get(key);
  if (!ajv) {
    const options = {
      allErrors: true,
      strict: false,
      useDefaults,
      code: { regExp: linearRegExp },
    } as const;
    ajv = boundUrlFormat(addFormats(draft2020 ? new Ajv2020(options) : new Ajv(options)));
    compilers.set(key, ajv);
  }
  return ajv;
}

/** Why `value` (a schema) is over the bounds, or null. Iterative: a deep value cannot overflow. */
function overBounds(value: unknown): string | null {
  const pending: Array<[unknown, number]> = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (item === null || typeof item !== "object") continue;
    if (depth > MAX_JSON_DEPTH) return `nests deeper than ${MAX_JSON_DEPTH} levels`;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  // Within the depth bound JSON.stringify cannot overflow the stack (and a cycle was refused
  // above, as nesting without end).
  const length = JSON.stringify(value)?.length ?? 0;
  return length > MAX_SCHEMA_LENGTH
    ? `is ${length} characters of JSON, more than ${MAX_SCHEMA_LENGTH}`
    : null;
}

/** Thrown by compileJsonSchema when a schema is not usable; `message` says why. */
export class SchemaRefused extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "SchemaRefused";
  }
}

/**
 * Compiles `schema` under the draft its `$schema` names: 2020-12 (what `z.toJSONSchema` writes
 * by default) or draft-07 (everything else). Throws SchemaRefused when the schema is over the
 * bounds, uses a regular expression RE2 cannot run, or is otherwise not a usable schema.
 * `useDefaults` fills `default`s into the value validated, so callers pass a copy.
 */
export function compileJsonSchema(
  schema: Record<string, unknown>,
  options: { useDefaults: boolean },
): ValidateFunction {
  const over = overBounds(schema);
  if (over) throw new SchemaRefused(`The schema ${over}.`);
  const draft2020 = String(schema.$schema ?? "").includes("2020-12");
  const ajv = compilerFor(draft2020, options.useDefaults);
  // The compiled function is all a caller keeps. Left in ajv's cache (a Map keyed by the schema
  // object), every form answer's schema would stay resident for good, and a second schema with
  // the same `$id` would be refused as a duplicate.
  try {
    return ajv.compile(schema);
  } catch (err) {
    throw new SchemaRefused(`The schema is not usable: ${(err as Error).message}`, { cause: err });
  } finally {
    ajv.removeSchema(schema);
  }
}

/** A form's validator (no defaults filled in: an answer is stored as given), or why not. */
export function formValidator(schema: Record<string, unknown>): ValidateFunction | string {
  try {
    return compileJsonSchema(schema, { useDefaults: false });
  } catch (err) {
    if (err instanceof SchemaRefused) return excerpt(err.message);
    throw err;
  }
}

function pathOf(instancePath: string): Array<string | number> {
  return instancePath
    .split("/")
    .filter(Boolean)
    .map((seg) =>
      /^\d+$/.test(seg) ? Number(seg) : seg.replaceAll("~1", "/").replaceAll("~0", "~"),
    );
}

/** One ValidationError per ajv error, under `loc`; a missing property is named as the field. */
export function schemaIssues(
  errors: ErrorObject[] | null | undefined,
  loc: Array<string | number>,
): ValidationIssue[] {
  return (errors ?? []).map((e) => {
    const path = [...loc, ...pathOf(e.instancePath)];
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    if (e.keyword === "required" && missing) {
      return { loc: [...path, missing], msg: "Field required", type: "missing" };
    }
    // A message may quote the schema (a `pattern`), which its author chose, not this caller.
    return { loc: path, msg: excerpt(e.message ?? "invalid"), type: e.keyword };
  });
}
