// Reading ctx.agent options: defaults, the output model (zod or JSON Schema), and the mistakes
// that dead-letter at once.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { parseAgentOptions } from "../../src/agents/index.ts";
import { isNonRetryable } from "../../src/authoring/index.ts";
import type { AgentConfig } from "../../src/config/server-config.ts";

const config: AgentConfig = { command: ["agent"], args: [], env: {}, cwd: "/tmp", timeout: 600 };
const agents = { default: config, other: { ...config, timeout: null } };

function refusal(opts: Record<string, unknown>, within: Record<string, AgentConfig> = agents) {
  try {
    parseAgentOptions(opts, within);
  } catch (err) {
    expect(isNonRetryable(err)).toBe(true);
    return (err as Error).message;
  }
  throw new Error("expected a refusal");
}

describe("parseAgentOptions", () => {
  it("applies the documented defaults and the agent's own timeout", () => {
    expect(parseAgentOptions({ prompt: "go" }, agents)).toEqual({
      prompt: "go",
      name: "default",
      config,
      outputSchema: null,
      ask: "never",
      permissions: "ask",
      timeout: 600,
      repair: 2,
    });
    const other = parseAgentOptions({ prompt: "go", agent: "other", timeout: 5 }, agents);
    expect(other).toMatchObject({ name: "other", timeout: 5 });
    expect(parseAgentOptions({ prompt: "go", agent: "other" }, agents).timeout).toBeNull();
  });

  it("turns a zod output model into draft-07 JSON Schema and keeps a JSON Schema object", () => {
    const zod = parseAgentOptions({ prompt: "p", output: z.object({ n: z.number() }) }, agents);
    expect(zod.outputSchema).toMatchObject({
      type: "object",
      properties: { n: { type: "number" } },
      required: ["n"],
    });
    const schema = { type: "array", items: { type: "string" } };
    expect(parseAgentOptions({ prompt: "p", output: schema }, agents).outputSchema).toBe(schema);
  });

  it("refuses mistakes with NonRetryable", () => {
    expect(refusal({ prompt: "p", agent: "nope" })).toContain(
      'unknown agent "nope"; configured agents: default, other',
    );
    expect(refusal({ prompt: "p" }, {})).toContain("no agents are configured");
    expect(refusal({})).toContain("prompt");
    expect(refusal({ prompt: "p", permissions: "maybe" })).toContain("permissions");
    expect(refusal({ prompt: "p", ask: "always" })).toContain("ask");
    expect(refusal({ prompt: "p", repair: -1 })).toContain("repair");
    expect(refusal({ prompt: "p", timeout: 0 })).toContain("timeout");
    expect(refusal({ prompt: "p", output: "json" })).toContain("output");
  });
});
