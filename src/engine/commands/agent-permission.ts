// An agent's permission requests (ACP `session/request_permission`), written for the live
// attempt whose agent asks. Each is a `permission` request with the agent's options: decided at
// once by the engine (policy allow/deny: recorded as answered by `engine`), or opened for a
// person, which parks the attempt like `ctx.ask` (engine/ask.ts `awaitAnswer`). Every write
// checks, in its own unit of work, that the attempt still owns its row: nothing is recorded
// for an attempt stopped meanwhile.
import { insertOpenRequest, type RequestFields } from "../ask.ts";
import { stillWaiting } from "../ask-waits.ts";
import { attemptOwnsRow } from "../attempt-guard.ts";
import type { RequestRecord } from "../domain.ts";
import type { AttemptHandle } from "../task-context.ts";

/** What the agent's request says; kind, mode and source are a permission request's own. */
export type PermissionFields = Pick<RequestRecord, "prompt" | "options" | "tool_call">;

function requestFields(fields: PermissionFields): RequestFields {
  return {
    kind: "permission",
    mode: "options",
    source: "agent",
    ordinal: null,
    prompt: fields.prompt,
    options: fields.options,
    schema: null,
    tool_call: fields.tool_call,
  };
}

/**
 * Records a request the engine answered itself with `optionId` (null: none fitted the policy),
 * opened and answered in one unit of work. Answers false, recording nothing, when the attempt
 * was stopped meanwhile.
 */
export async function decidePermission(
  h: AttemptHandle,
  fields: PermissionFields,
  optionId: string | null,
): Promise<boolean> {
  const { task, live } = h;
  return h.core.uow.run(async (work) => {
    if (!(await attemptOwnsRow(work, task.id, live.claim))) return false;
    const req = await insertOpenRequest(work, task, requestFields(fields));
    await work.tx.updateRequest(req.id, {
      answer: optionId,
      answered_by: "engine",
      answered: work.now,
    });
    work.emit("request.answered", req.run_id, req.task_id, {
      author: "engine",
      option_id: optionId,
      request_id: req.id,
    });
    return true;
  });
}

/**
 * Opens a request for a person to answer (the caller then waits with `awaitAnswer`); null when
 * the attempt was stopped meanwhile, as nobody could take the answer.
 */
export async function openPermission(
  h: AttemptHandle,
  fields: PermissionFields,
): Promise<RequestRecord | null> {
  const { task, live } = h;
  return h.core.uow.run(async (work) =>
    (await attemptOwnsRow(work, task.id, live.claim))
      ? insertOpenRequest(work, task, requestFields(fields))
      : null,
  );
}

/**
 * Nobody will consume an answer to `req` any more: it goes stale if still unanswered. When the
 * attempt itself goes on (the agent's own timeout ended the wait), it leaves `waiting` so that
 * its failure can be recorded; it never took its slot back, and holds none while it ends.
 */
export async function abandonPermission(h: AttemptHandle, req: RequestRecord): Promise<void> {
  const { core, task, live } = h;
  await core.uow.run(async (work) => {
    const current = await work.tx.getRequest(req.id);
    if (current && current.answered_by === null) {
      await work.tx.updateRequest(req.id, { stale: true });
    }
    // The body's own ask still waits on a person: the task stays waiting.
    if (live.abort.aborted || stillWaiting(live)) return;
    await work.tx.updateTask(
      task.id,
      { status: "in_progress", waiting_since: null },
      { status: ["waiting"], claim: live.claim },
    );
  });
}
