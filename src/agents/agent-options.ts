// Reading `ctx.agent({ prompt, agent = "default", output?, ask = "never", permissions = "ask",
// timeout?, repair = 2 })`. A mistake here is in the workflow's code, so it dead-letters the
// attempt (NonRetryable): running the same call again cannot fix it.
import { z } from "zod";
import { NonRetryable } from "../authoring/index.ts";
import type { AgentConfig } from "../config/server-config.ts";

export interface AgentCallSpec {
  prompt: string;
  /** The configured agent's name and its configuration. */
  name: string;
  config: AgentConfig;
  outputSchema: Record<string, unknown> | null;
  ask: "never" | "http";
  permissions: "ask" | "allow" | "deny";
  /** Seconds of wall-clock time (waiting included), or null for no cap. */
  timeout: number | null;
  repair: number;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], what: string): T {
  if (allowed.includes(value as T)) return value as T;
  throw new NonRetryable(
    `ctx.agent: ${what} must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`,
  );
}

function isZodSchema(value: object): value is z.ZodType {
  return "_zod" in value;
}

/** The JSON Schema of the declared output model: a zod schema is converted, an object is kept. */
export function outputSchemaOf(output: unknown): Record<string, unknown> | null {
  if (output === undefined || output === null) return null;
  if (typeof output !== "object" || Array.isArray(output)) {
    throw new NonRetryable("ctx.agent: output must be a zod schema or a JSON Schema object");
  }
  if (!isZodSchema(output)) return output as Record<string, unknown>;
  try {
    // draft-07 is what the submission validator (ajv's default) reads.
    return z.toJSONSchema(output, { target: "draft-7" }) as Record<string, unknown>;
  } catch (err) {
    throw new NonRetryable(`ctx.agent: the output model has no JSON Schema: ${String(err)}`);
  }
}

function agentNamed(name: unknown, agents: Record<string, AgentConfig>): AgentConfig {
  if (typeof name === "string" && Object.hasOwn(agents, name)) return agents[name];
  const known = Object.keys(agents);
  const list = known.length
    ? `configured agents: ${known.join(", ")}`
    : "no agents are configured ([agents.<name>] in the server configuration)";
  throw new NonRetryable(`ctx.agent: unknown agent ${JSON.stringify(name)}; ${list}`);
}

function seconds(value: unknown, fallback: number | null): number | null {
  if (value === undefined || value === null) return fallback;
  if (typeof value === "number" && value > 0 && Number.isFinite(value)) return value;
  throw new NonRetryable("ctx.agent: timeout must be a positive number of seconds");
}

export function parseAgentOptions(
  opts: Record<string, unknown>,
  agents: Record<string, AgentConfig>,
): AgentCallSpec {
  if (typeof opts?.prompt !== "string" || opts.prompt.trim() === "") {
    throw new NonRetryable("ctx.agent: prompt must be a non-empty string");
  }
  const name = opts.agent ?? "default";
  const config = agentNamed(name, agents);
  const repair = opts.repair ?? 2;
  if (typeof repair !== "number" || !Number.isInteger(repair) || repair < 0) {
    throw new NonRetryable("ctx.agent: repair must be a non-negative integer");
  }
  return {
    prompt: opts.prompt,
    name: name as string,
    config,
    outputSchema: outputSchemaOf(opts.output),
    ask: oneOf(opts.ask ?? "never", ["never", "http"], "ask"),
    permissions: oneOf(opts.permissions ?? "ask", ["ask", "allow", "deny"], "permissions"),
    timeout: seconds(opts.timeout, config.timeout),
    repair,
  };
}
