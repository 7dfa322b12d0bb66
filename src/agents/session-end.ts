// Recording the end of an agent session in one unit of work: the attempt's `stats`, the
// cleared token hash and the call's result (all guarded by the attempt's claim, so a newer claim
// of the row is never touched), the `agent.stats` event and a `stats` work-log entry with a
// summary and the JSON.
import type { Json } from "../engine/domain.ts";
import type { AttemptHandle } from "../engine/task-context.ts";
import type { Work } from "../engine/unit-of-work.ts";
import { appendLog } from "../engine/work-log.ts";
import { type AgentStats, mergeStats, statsSummary } from "./agent-stats.ts";

/**
 * What the agent asked and nobody answered goes stale with its session: the process that would
 * poll for the answer is gone and its token is cleared, so the request leaves the inbox instead
 * of waiting for an answer nothing consumes.
 */
async function staleAgentRequests(work: Work, taskId: number): Promise<void> {
  for (const req of await work.tx.listRequests({ task_id: taskId, pending: true })) {
    if (req.source === "agent") await work.tx.updateRequest(req.id, { stale: true });
  }
}

/**
 * `result`: the submission the call resolves with, recorded as call number `call`'s result in
 * the same transaction, before `ctx.agent` resolves (agent-extension.ts reads it back).
 */
export async function recordSessionEnd(
  h: AttemptHandle,
  agent: string,
  stats: AgentStats,
  result: { submission: number; call: number } | null = null,
): Promise<void> {
  const { core, task, live } = h;
  await core.uow.run(async (work) => {
    const row = await work.tx.getTask(task.id);
    if (!row) return; // the run was deleted meanwhile
    if (row.claim === live.claim) {
      const merged = mergeStats(row.stats, stats) as unknown as Record<string, Json>;
      await work.tx.updateTask(task.id, { stats: merged, token_hash: null }, { claim: live.claim });
      await staleAgentRequests(work, task.id);
      if (result) await work.tx.markAgentResult(result.submission, result.call);
    }
    work.emit("agent.stats", task.run_id, task.id, { ...stats });
    await appendLog(work, {
      run_id: task.run_id,
      node: task.node,
      task_id: task.id,
      author: "engine",
      kind: "stats",
      text: `${statsSummary(agent, stats)}\n${JSON.stringify(stats)}`,
    });
  });
}
