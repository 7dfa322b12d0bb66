// What the end of an agent session records, through the attempt API's `endSession`: the
// attempt's `stats` (added to an earlier session's of the same attempt), the `agent.stats`
// event, and a `stats` work-log entry with a summary and the JSON.
import type { AttemptCommands, Json } from "../engine/index.ts";
import { type AgentStats, mergeStats, statsSummary } from "./agent-stats.ts";

/**
 * `result`: the submission the call resolves with, recorded as call number `call`'s result in
 * the same transaction, before `ctx.agent` resolves (agent-extension.ts reads it back).
 */
export async function recordSessionEnd(
  attempt: AttemptCommands,
  agent: string,
  stats: AgentStats,
  result: { submission: number; call: number } | null = null,
): Promise<void> {
  await attempt.endSession({
    stats: (previous) => mergeStats(previous, stats) as unknown as Record<string, Json>,
    event: { ...stats },
    log: `${statsSummary(agent, stats)}\n${JSON.stringify(stats)}`,
    result,
  });
}
