// The one JSON Schema compiler of the service (form answers, action inputs, agent output models).
import { describe, expect, it } from "vitest";
import { compileJsonSchema, schemaIssues } from "../src/service/json-schema.ts";

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
