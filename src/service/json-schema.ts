// JSON Schema as the service reads it from workflow code: an action's input model and an agent's
// output model. One compiler for both, so a schema means the same thing wherever it is declared,
// and one mapping of ajv's errors to ValidationErrors (`loc`, `msg`, `type`).
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { ValidationIssue } from "./errors.ts";

const addFormats = addFormatsModule as unknown as <T>(ajv: T) => T;
const compilers = new Map<string, Ajv>();

function compilerFor(draft2020: boolean, useDefaults: boolean): Ajv {
  const key = `${draft2020}:${useDefaults}`;
  let ajv = compilers.get(key);
  if (!ajv) {
    const options = { allErrors: true, strict: false, useDefaults } as const;
    ajv = addFormats(draft2020 ? new Ajv2020(options) : new Ajv(options));
    compilers.set(key, ajv);
  }
  return ajv;
}

/**
 * Compiles `schema` under the draft its `$schema` names: 2020-12 (what `z.toJSONSchema` writes
 * by default) or draft-07 (everything else). Throws when the schema is not usable.
 * `useDefaults` fills `default`s into the value validated, so callers pass a copy.
 */
export function compileJsonSchema(
  schema: Record<string, unknown>,
  options: { useDefaults: boolean },
): ValidateFunction {
  const draft2020 = String(schema.$schema ?? "").includes("2020-12");
  const ajv = compilerFor(draft2020, options.useDefaults);
  // The compiled function is all a caller keeps. Left in ajv's cache (a Map keyed by the schema
  // object), every form answer's schema would stay resident for good, and a second schema with
  // the same `$id` would be refused as a duplicate.
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(schema);
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
    return { loc: path, msg: e.message ?? "invalid", type: e.keyword };
  });
}
