// ACP `session/request_permission`. With policy "ask" a person decides: a `permission` request
// (mode options, the ACP options with their kind, the tool call) parks the task exactly like
// `ctx.ask` does. With "allow" or "deny" the engine answers at once and the request is recorded
// as answered by `engine`. Requests are handled one at a time, so the task is never parked on
// two of them. When the session is stopping, the agent is told its request was cancelled.
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";
import { awaitAnswer, insertOpenRequest, type RequestFields } from "../engine/ask.ts";
import { stillWaiting } from "../engine/ask-waits.ts";
import { attemptOwnsRow } from "../engine/attempt-guard.ts";
import type { Json, RequestRecord } from "../engine/domain.ts";
import type { AttemptHandle } from "../engine/task-context.ts";
import type { StatsCollector } from "./agent-stats.ts";

export type PermissionPolicy = "ask" | "allow" | "deny";

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
const selected = (optionId: string): RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId },
});
const isDenial = (option: PermissionOption | undefined) => !option?.kind.startsWith("allow_");

function fieldsOf(params: RequestPermissionRequest): RequestFields {
  const title = params.toolCall.title ?? "run a tool";
  return {
    kind: "permission",
    mode: "options",
    source: "agent",
    ordinal: null,
    prompt: `The agent asks for permission: ${title}`,
    options: params.options.map((o) => ({ option_id: o.optionId, name: o.name, kind: o.kind })),
    schema: null,
    tool_call: JSON.parse(JSON.stringify(params.toolCall)) as Record<string, Json>,
  };
}

export class PermissionGate {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly h: AttemptHandle,
    private readonly policy: PermissionPolicy,
    /** Aborted when the session stops (attempt stopped, or the agent's own timeout). */
    private readonly stop: AbortSignal,
    private readonly stats: StatsCollector,
  ) {}

  handle(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const next = this.#queue.then(() => this.#decide(params));
    this.#queue = next.catch(() => {});
    return next;
  }

  /** Resolves once no request is being handled (the task is not parked any more). */
  settled(): Promise<unknown> {
    return this.#queue;
  }

  async #decide(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    if (this.stop.aborted) return CANCELLED;
    if (this.policy === "ask") return this.#askPerson(params);
    const prefix = this.policy === "allow" ? "allow_" : "reject_";
    const option = params.options.find((o) => o.kind.startsWith(prefix));
    const { task, live } = this.h;
    const recorded = await this.h.core.uow.run(async (work) => {
      // The attempt was stopped meanwhile: nothing is recorded after its end.
      if (!(await attemptOwnsRow(work, task.id, live.claim))) return false;
      const req = await insertOpenRequest(work, this.h.task, fieldsOf(params));
      const optionId = option?.optionId ?? null;
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
    if (!recorded) return CANCELLED;
    if (isDenial(option)) this.stats.denied += 1;
    return option ? selected(option.optionId) : CANCELLED;
  }

  async #askPerson(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const { task, live } = this.h;
    const req = await this.h.core.uow.run(async (work) =>
      // No request for an attempt stopped meanwhile: nobody could take its answer.
      (await attemptOwnsRow(work, task.id, live.claim))
        ? insertOpenRequest(work, task, fieldsOf(params))
        : null,
    );
    if (!req) return CANCELLED;
    try {
      const answered = await awaitAnswer(this.h, req, this.stop);
      const optionId = String(answered.answer);
      if (isDenial(params.options.find((o) => o.optionId === optionId))) this.stats.denied += 1;
      return selected(optionId);
    } catch {
      await this.#abandon(req).catch(() => {});
      return CANCELLED;
    }
  }

  /**
   * Nobody will consume an answer any more: the request goes stale. When the attempt itself
   * goes on (the agent's own timeout ended the wait), it leaves `waiting` so that its failure
   * can be recorded; it never took its slot back, and holds none while it ends.
   */
  async #abandon(req: RequestRecord): Promise<void> {
    const { core, task, live } = this.h;
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
}
