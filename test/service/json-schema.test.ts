// The one JSON Schema compiler of the service (form answers, action inputs, agent output models).
import { describe, expect, it } from "vitest";
import { compileJsonSchema, SchemaRefused, schemaIssues } from "../../src/lib/json-schema.ts";
import { MAX_JSON_DEPTH, MAX_SCHEMA_LENGTH } from "../../src/service/limits.ts";

const form = () => ({
  $id: "https://example.test/approval",
  type: "object",
  properties: { budget: { type: "integer", minimum: 0 } },
  required: ["budget"],
});

describe("compileJsonSchema", () => {
  it("compiles two schemas that share an $id, as two requests with one form do", () => {
    const first = compileJsonSchema(form(), { useDefaults: false });
    const second = compileJsonSchema(form(), { useDefaults: false });
    expect(first({ budget: 3 })).toBe(true);
    expect(second({ budget: -1 })).toBe(false);
    expect(schemaIssues(second.errors, ["body", "value"])).toEqual([
      { loc: ["body", "value", "budget"], msg: "must be >= 0", type: "minimum" },
    ]);
  });

  it("names a missing field under its own name", () => {
    const validate = compileJsonSchema(form(), { useDefaults: false });
    expect(validate({})).toBe(false);
    expect(schemaIssues(validate.errors, ["body", "value"])).toEqual([
      { loc: ["body", "value", "budget"], msg: "Field required", type: "missing" },
    ]);
  });
});

describe("schemas from callers are bounded and run in linear time", () => {
  const compile = (schema: Record<string, unknown>) =>
    compileJsonSchema(schema, { useDefaults: false });

  it("runs pattern and patternProperties on RE2: a backtracking pattern answers at once", () => {
    const validate = compile({
      type: "object",
      properties: { a: { type: "string", pattern: "^(.|.)*Z$" } },
      patternProperties: { "^(x|x)*y$": { type: "integer" } },
    });
    expect(validate({ a: `${"a".repeat(100_000)}Z`, [`${"x".repeat(50_000)}y`]: 1 })).toBe(true);
    expect(validate({ a: "a".repeat(100_000), [`${"x".repeat(50_000)}y`]: "no" })).toBe(false);
  });

  it("refuses what RE2 cannot run, an invalid schema, and one over the bounds", () => {
    const refusals = [
      { pattern: "(" },
      { pattern: "(?=a)a" },
      { pattern: "(a)\\1" },
      { type: 12 },
      { description: "d".repeat(MAX_SCHEMA_LENGTH) },
    ];
    for (const schema of refusals) {
      expect(() => compile(schema), JSON.stringify(schema).slice(0, 40)).toThrow(SchemaRefused);
    }
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < MAX_JSON_DEPTH; i++) deep = { items: deep };
    expect(() => compile(deep)).toThrow(/deeper than/);
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(() => compile(cyclic)).toThrow(SchemaRefused);
  });

  it("checks the url format only on strings of a plausible length", () => {
    const validate = compile({ type: "string", format: "url" });
    expect(validate("https://example.test/a")).toBe(true);
    // Backtracks quadratically in ajv-formats' expression: refused before it runs.
    expect(validate(`http://${":".repeat(1_000_000)}!`)).toBe(false);
  });
});
