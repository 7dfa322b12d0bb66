// JSON Schema (the OpenAPI 3.0 dialect /openapi.json publishes) to fast-check arbitraries. Each
// value is a mix: mostly valid-shaped (sometimes a real id from the seeded server, looked up by
// field name in `hints`), some boundary values of the schema's own constraints, some hostile
// values of any type. Only the keywords the request schemas use are read; `schemaKeywords` lets
// the test notice when /openapi.json starts using one this translation ignores.
import fc from "fast-check";
import {
  anyJson,
  edgeNumbers,
  hostileString,
  hostileValue,
  RawJson,
  toJsonText,
  trickyKeys,
  withMember,
} from "./fuzz-hostile.ts";

export interface JsonSchema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
}

/** Every keyword `valueFor` reads or may safely ignore. */
export const KNOWN_KEYWORDS = new Set<string>([
  "$ref",
  "type",
  "nullable",
  "enum",
  "anyOf",
  "allOf",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minimum",
  "maximum",
  "default",
  "description",
]);

/** Real values the server knows (or an arbitrary of them), by the field or parameter name they fit. */
export type Hints = Record<string, ReadonlyArray<string | number> | fc.Arbitrary<unknown>>;

function hinted(hint: Hints[string] | undefined): fc.Arbitrary<unknown> | undefined {
  if (hint instanceof fc.Arbitrary) return hint;
  return hint?.length ? fc.constantFrom(...hint) : undefined;
}

export interface SchemaContext {
  components: Record<string, JsonSchema>;
  hints: Hints;
  /** Rewrites a field's generated values that must stay inside the test's sandbox. */
  confine?: Record<string, (value: unknown) => unknown>;
}

export function resolve(schema: JsonSchema, ctx: SchemaContext): JsonSchema {
  if (schema.$ref) return resolve(ctx.components[schema.$ref.split("/").pop()!], ctx);
  if (schema.allOf?.length === 1) {
    const { allOf, ...rest } = schema;
    return { ...resolve(allOf[0], ctx), ...rest };
  }
  return schema;
}

/** The keywords used anywhere in `schema`, after resolving references. */
export function schemaKeywords(schema: JsonSchema, ctx: SchemaContext, into = new Set<string>()) {
  const s = resolve(schema, ctx);
  for (const key of Object.keys(s)) into.add(key);
  for (const sub of [...(s.anyOf ?? []), ...(s.allOf ?? []), ...Object.values(s.properties ?? {})])
    schemaKeywords(sub, ctx, into);
  if (s.items) schemaKeywords(s.items, ctx, into);
  if (typeof s.additionalProperties === "object") schemaKeywords(s.additionalProperties, ctx, into);
  return into;
}

// Integers: small ones most often (ids, indexes), the full safe range sometimes.
const integers = (min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) =>
  fc
    .oneof(fc.integer({ min: -3, max: 50 }), fc.maxSafeInteger())
    .filter((n) => n >= min && n <= max);

const plainString = (minLength = 0) =>
  fc.oneof(
    fc.string({ minLength, maxLength: 24 }),
    fc.string({ unit: "grapheme", minLength, maxLength: 12 }),
  );

/** Values that sit on or just past the schema's own constraints. */
function boundary(s: JsonSchema): fc.Arbitrary<unknown> {
  switch (s.type) {
    case "string": {
      const min = s.minLength ?? 0;
      const max =
        s.maxLength === undefined ? [] : ["a".repeat(s.maxLength), "a".repeat(s.maxLength + 1)];
      return fc.constantFrom("", " ", "a".repeat(Math.max(0, min - 1)), "a".repeat(min), ...max);
    }
    case "integer":
    case "number": {
      const edges = [s.minimum, s.maximum].filter((n): n is number => n !== undefined);
      const near = edges.flatMap((n) => [n, n - 1, n + 1]);
      return fc.oneof(fc.constantFrom(0, -1, 0.5, ...near), edgeNumbers);
    }
    case "array":
      return fc.constantFrom([], [null], [[]]);
    case "object":
      return fc.constantFrom({}, [], null);
    default:
      return fc.constantFrom(null, "", 0, false, [], {});
  }
}

/** Adds unknown members (prototype names, hostile keys) to a generated object now and then. */
function withUnknownMembers(object: fc.Arbitrary<object>): fc.Arbitrary<unknown> {
  const extra = fc.array(fc.tuple(fc.oneof(trickyKeys, fc.string()), hostileValue), {
    maxLength: 3,
  });
  return fc
    .tuple(
      object,
      fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant(null) }, extra),
    )
    .map(([o, members]) =>
      (members ?? []).reduce<object>((acc, [k, v]) => withMember(acc, k, v), { ...o }),
    );
}

/** JSON-Schema-shaped objects for free-form `schema` fields: some valid, some that must be refused. */
const schemaLike = fc.oneof(
  fc.constantFrom(
    { type: "object", properties: { n: { type: "integer", minimum: 0 } }, required: ["n"] },
    { type: "string", pattern: "^(a+)+$" },
    { type: "string", pattern: "(" },
    { type: "bogus" },
    { $ref: "#/definitions/nowhere" },
    { $ref: "http://127.0.0.1:1/schema.json" },
    { type: "object", properties: { x: { format: "no-such-format" } } },
    { not: {} },
  ),
  fc
    .integer({ min: 1, max: 5000 })
    .map(
      (depth) =>
        new RawJson(
          `${'{"type":"object","properties":{"a":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)}`,
        ),
    ),
);

function validShaped(s: JsonSchema, ctx: SchemaContext, field?: string): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.anyOf) return fc.oneof(...s.anyOf.map((sub) => valueFor(sub, ctx, field)));
  switch (s.type) {
    case "string":
      return plainString(s.minLength);
    case "integer":
      return integers(s.minimum, s.maximum);
    case "number":
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum, max: s.maximum });
    case "boolean":
      return fc.boolean();
    case "array":
      return fc.array(valueFor(s.items ?? {}, ctx), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(4, s.minItems ?? 0),
      });
    case "object": {
      const props = s.properties ?? {};
      const model = Object.fromEntries(
        Object.entries(props).map(([k, sub]) => [k, valueFor(sub, ctx, k)]),
      );
      const record = fc.record(model, { requiredKeys: s.required ?? [] }) as fc.Arbitrary<object>;
      if (Object.keys(props).length === 0 && field === "schema")
        return fc.oneof(schemaLike, withUnknownMembers(record));
      return withUnknownMembers(record);
    }
    default:
      return anyJson;
  }
}

/** The arbitrary for one value of `schema`, named `field` in its parent (for hints). */
export function valueFor(
  schema: JsonSchema,
  ctx: SchemaContext,
  field?: string,
): fc.Arbitrary<unknown> {
  const s = resolve(schema, ctx);
  const real = hinted(field ? ctx.hints[field] : undefined);
  const valid = real
    ? fc.oneof(
        { withCrossShrink: true },
        { weight: 3, arbitrary: real },
        validShaped(s, ctx, field),
      )
    : validShaped(s, ctx, field);
  const mixed = fc.oneof(
    { withCrossShrink: true },
    { weight: 6, arbitrary: valid },
    { weight: 2, arbitrary: boundary(s) },
    { weight: 2, arbitrary: hostileValue },
  );
  const value = s.nullable ? fc.option(mixed, { nil: null, freq: 8 }) : mixed;
  const confine = field ? ctx.confine?.[field] : undefined;
  return confine ? value.map(confine) : value;
}

/**
 * A value for a path or query parameter, as the text that goes into the URL: the schema's
 * value printed, or a literal a client may mistake for one (`1e3`, `0x10`, `.5`, `yes`).
 */
export function paramTextFor(
  schema: JsonSchema,
  ctx: SchemaContext,
  name: string,
): fc.Arbitrary<string> {
  const s = resolve(schema, ctx);
  const lookalikes: Record<string, string[]> = {
    integer: ["1e3", "0x10", "", "-0", " 1", "1.0", "+1", "\uFF11", "99999999999999999999"],
    number: [".5", "+1", "1e-05", "NaN", "Infinity", "-Infinity", "1e999", "0x10", "", "121"],
    boolean: ["true", "false", "1", "0", "yes", "no", "on", "off", "TRUE", "tru", ""],
  };
  const printed = valueFor(s, ctx, name).map((v) => (typeof v === "string" ? v : toJsonText(v)));
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 6, arbitrary: printed },
    { weight: 2, arbitrary: fc.constantFrom(...(lookalikes[s.type ?? ""] ?? [""])) },
    { weight: 1, arbitrary: hostileString },
  );
}
