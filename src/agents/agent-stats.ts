// Measuring one agent session (AgentStats, http-api.md "Other"). Tokens come from the turns'
// `usage` (per turn, summed), cost from the latest `usage_update` (the agent reports it
// cumulatively), the model from a session config option of category `model`. What the agent
// never reported stays absent rather than zero; what the runner counts itself (tool calls,
// repair turns, denials) is always present.
import type {
  NewSessionResponse,
  SessionConfigOption,
  SessionUpdate,
  Usage,
} from "@agentclientprotocol/sdk/unstable";
import type { AgentReason } from "./agent-failure.ts";

export interface AgentStats {
  node: string;
  attempt: number;
  status: "ok" | "failed";
  duration_s: number;
  cost?: number;
  denied_permissions?: number;
  input_tokens?: number;
  model?: string;
  output_tokens?: number;
  repair_turns?: number;
  session_id?: string;
  tool_calls?: number;
  total_tokens?: number;
  reason?: AgentReason;
}

function modelOf(options: SessionConfigOption[] | null | undefined): string | undefined {
  const option = options?.find((o) => o.category === "model" && o.type === "select");
  const value = option && (option as { currentValue?: unknown }).currentValue;
  return typeof value === "string" ? value : undefined;
}

export class StatsCollector {
  readonly #started = Date.now();
  #tokens: { input: number; output: number; total: number } | null = null;
  #cost: number | undefined;
  #model: string | undefined;
  #sessionId: string | undefined;
  repairTurns = 0;
  denied = 0;

  constructor(
    private readonly node: string,
    private readonly attempt: number,
  ) {}

  session(response: NewSessionResponse): void {
    this.#sessionId = response.sessionId;
    this.#model = modelOf(response.configOptions) ?? this.#model;
  }

  observe(update: SessionUpdate): void {
    if (update.sessionUpdate === "usage_update" && update.cost) this.#cost = update.cost.amount;
    if (update.sessionUpdate === "config_option_update") {
      this.#model = modelOf(update.configOptions) ?? this.#model;
    }
  }

  turnUsage(usage: Usage | null | undefined): void {
    if (!usage) return;
    this.#tokens ??= { input: 0, output: 0, total: 0 };
    const t = this.#tokens;
    t.input += usage.inputTokens;
    t.output += usage.outputTokens;
    t.total += usage.totalTokens;
  }

  finish(toolCalls: number, reason: AgentReason | null): AgentStats {
    const stats: AgentStats = {
      node: this.node,
      attempt: this.attempt,
      status: reason ? "failed" : "ok",
      duration_s: (Date.now() - this.#started) / 1000,
      tool_calls: toolCalls,
      repair_turns: this.repairTurns,
      denied_permissions: this.denied,
    };
    if (this.#tokens) {
      stats.input_tokens = this.#tokens.input;
      stats.output_tokens = this.#tokens.output;
      stats.total_tokens = this.#tokens.total;
    }
    if (this.#cost !== undefined) stats.cost = this.#cost;
    if (this.#model !== undefined) stats.model = this.#model;
    if (this.#sessionId !== undefined) stats.session_id = this.#sessionId;
    if (reason) stats.reason = reason;
    return stats;
  }
}

const SUMMED = [
  "duration_s",
  "cost",
  "input_tokens",
  "output_tokens",
  "total_tokens",
  "tool_calls",
  "repair_turns",
  "denied_permissions",
] as const;

/**
 * What the attempt's row keeps when a body runs several agent sessions: the sums of the
 * measurements (so run totals stay right) and the latest session's identity and outcome.
 */
export function mergeStats(previous: Record<string, unknown> | null, next: AgentStats) {
  if (!previous || previous.node !== next.node || previous.attempt !== next.attempt) return next;
  const merged: Record<string, unknown> = { ...next };
  for (const field of SUMMED) {
    const a = previous[field];
    const b = next[field];
    if (typeof a === "number") merged[field] = typeof b === "number" ? a + b : a;
  }
  return merged as unknown as AgentStats;
}

/** A readable line for the work log, e.g. `ok in 3.2s, 1200 tokens (in 1000, out 200)`. */
export function statsSummary(agent: string, s: AgentStats): string {
  const parts = [`Agent ${agent} on ${s.node} (attempt ${s.attempt}): ${s.status}`];
  if (s.reason) parts[0] += ` (${s.reason})`;
  parts[0] += ` in ${s.duration_s.toFixed(1)}s`;
  if (s.total_tokens !== undefined) {
    parts.push(`${s.total_tokens} tokens (in ${s.input_tokens}, out ${s.output_tokens})`);
  }
  if (s.cost !== undefined) parts.push(`cost ${s.cost}`);
  if (s.model) parts.push(`model ${s.model}`);
  parts.push(`${s.tool_calls ?? 0} tool calls`, `${s.repair_turns ?? 0} repair turns`);
  if (s.denied_permissions) parts.push(`${s.denied_permissions} denied permissions`);
  return parts.join(", ");
}
