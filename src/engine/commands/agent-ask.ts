// An agent asking a person under its task token (ask policy `http`): the request opens like a
// node's ask (`request.opened`, source `agent`), but the attempt does not park on it. The agent
// polls for the answer instead, and what it asked goes stale with its session
// (agent-session.ts).
import { insertOpenRequest, normalizeOptions } from "../ask.ts";
import type { EngineCore } from "../core.ts";
import type { Json, RequestRecord, TaskRecord } from "../domain.ts";
import { EngineError } from "../errors.ts";
import { requireTokenLive } from "./attempt-token.ts";

export interface AgentQuestion {
  prompt: string;
  /** Choices (an empty list asks for text); a string is its own id and name. */
  options?: Array<
    string | { option_id: string; name?: string | null; kind?: string | null }
  > | null;
  /** A form's JSON Schema, already compiled by the caller: a form nobody can answer never opens. */
  schema?: Record<string, unknown> | null;
}

/** Opens the agent's question on `task`; answers the stored request (its `mode` included). */
export async function openAgentQuestion(
  core: EngineCore,
  task: TaskRecord,
  question: AgentQuestion,
): Promise<RequestRecord> {
  const options = normalizeOptions(question.options);
  return core.uow.run(async (work) => {
    await requireTokenLive(work.tx, task);
    return insertOpenRequest(work, task, {
      kind: "question",
      mode: options ? "options" : question.schema ? "form" : "text",
      source: "agent",
      ordinal: null,
      prompt: question.prompt,
      options,
      schema: (question.schema ?? null) as Record<string, Json> | null,
      tool_call: null,
    });
  });
}

/**
 * Request `requestId` of `task` once it is answered or `ms` have passed, whichever comes
 * first; claims nothing. Refused (`not_found`) when `task` has no such request.
 */
export async function awaitAgentAnswer(
  core: EngineCore,
  task: TaskRecord,
  requestId: number,
  ms: number,
): Promise<RequestRecord> {
  const read = async () => {
    const req = await core.store.getRequest(requestId);
    if (!req || req.task_id !== task.id) {
      throw new EngineError(
        "not_found",
        `Request ${requestId} does not exist for task ${task.id}.`,
      );
    }
    return req;
  };
  const req = await read();
  if (req.answered_by || ms <= 0) return req;
  await answeredWithin(core, requestId, ms);
  return read();
}

function answeredWithin(core: EngineCore, requestId: number, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(finish, ms);
    const unsubscribe = core.bus.subscribe((e) => {
      if (e.name === "request.answered" && e.data.request_id === requestId) finish();
    });
    // The answer may have committed between the caller's read and the subscription.
    void core.store.getRequest(requestId).then((r) => r?.answered_by && finish());
    function finish() {
      clearTimeout(timer);
      unsubscribe();
      resolve();
    }
  });
}
