// The end of an agent session, recorded in one unit of work: the attempt's `stats`, its task
// token revoked and the call's result (all guarded by the attempt's claim, so a newer claim of
// the row is never touched), what the agent asked and nobody answered gone stale, then the
// `agent.stats` event and a `stats` work-log entry. The event and the entry are written even for
// an attempt stopped meanwhile: they report the session the stop ended.
import { staleOpenRequests } from "../ask.ts";
import type { Json } from "../domain.ts";
import type { EventData } from "../events.ts";
import type { AttemptHandle } from "../task-context.ts";
import { appendLog } from "../work-log.ts";

export interface SessionEnd {
  /** The attempt's stats given what its row holds (an earlier session's, or null). */
  stats(previous: Record<string, Json> | null): Record<string, Json>;
  /** The session's own stats: the `agent.stats` event's data. */
  event: EventData<"agent.stats">;
  /** The `stats` work-log entry (author `engine`). */
  log: string;
  /**
   * The submission the call resolves with, recorded as call number `call`'s result before
   * `ctx.agent` resolves (a body run again after a restart reads it back instead of running
   * the agent twice); null when the call failed.
   */
  result: { submission: number; call: number } | null;
}

export async function endAgentSession(h: AttemptHandle, end: SessionEnd): Promise<void> {
  const { core, task, live } = h;
  await core.uow.run(async (work) => {
    const row = await work.tx.getTask(task.id);
    if (!row) return; // the run was deleted meanwhile
    if (row.claim === live.claim) {
      const stats = end.stats(row.stats);
      await work.tx.updateTask(task.id, { stats, token_hash: null }, { claim: live.claim });
      // The process that would poll for an answer is gone and its token is cleared, so what
      // it asked leaves the inbox instead of waiting for an answer nothing consumes.
      await staleOpenRequests(work, task.id, "agent");
      if (end.result) await work.tx.markAgentResult(end.result.submission, end.result.call);
    }
    work.emit("agent.stats", task.run_id, task.id, end.event);
    await appendLog(work, {
      run_id: task.run_id,
      node: task.node,
      task_id: task.id,
      author: "engine",
      kind: "stats",
      text: end.log,
    });
  });
}
