// A work-log entry written by an attempt's agent under its task token (author `agent`).
import type { EngineCore } from "../core.ts";
import type { LogRecord, TaskRecord } from "../domain.ts";
import { appendLog } from "../work-log.ts";
import { requireTokenLive } from "./attempt-token.ts";

export async function appendAgentLog(
  core: EngineCore,
  task: TaskRecord,
  text: string,
): Promise<LogRecord> {
  return core.uow.run(async (work) => {
    await requireTokenLive(work.tx, task);
    return appendLog(work, {
      run_id: task.run_id,
      node: task.node,
      task_id: task.id,
      author: "agent",
      kind: null,
      text,
    });
  });
}
