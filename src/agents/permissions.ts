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
import type { AttemptCommands, Json, PermissionFields } from "../engine/index.ts";
import type { StatsCollector } from "./agent-stats.ts";

export type PermissionPolicy = "ask" | "allow" | "deny";

const CANCELLED: RequestPermissionResponse = { outcome: { outcome: "cancelled" } };
const selected = (optionId: string): RequestPermissionResponse => ({
  outcome: { outcome: "selected", optionId },
});
const isDenial = (option: PermissionOption | undefined) => !option?.kind.startsWith("allow_");

function fieldsOf(params: RequestPermissionRequest): PermissionFields {
  const title = params.toolCall.title ?? "run a tool";
  return {
    prompt: `The agent asks for permission: ${title}`,
    options: params.options.map((o) => ({ option_id: o.optionId, name: o.name, kind: o.kind })),
    tool_call: JSON.parse(JSON.stringify(params.toolCall)) as Record<string, Json>,
  };
}

export class PermissionGate {
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly attempt: AttemptCommands,
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
    const recorded = await this.attempt.decidePermission(
      fieldsOf(params),
      option?.optionId ?? null,
    );
    if (!recorded) return CANCELLED;
    if (isDenial(option)) this.stats.denied += 1;
    return option ? selected(option.optionId) : CANCELLED;
  }

  async #askPerson(params: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    // No request for an attempt stopped meanwhile: nobody could take its answer.
    const req = await this.attempt.openPermission(fieldsOf(params));
    if (!req) return CANCELLED;
    try {
      const answered = await this.attempt.awaitAnswer(req, this.stop);
      const optionId = String(answered.answer);
      if (isDenial(params.options.find((o) => o.optionId === optionId))) this.stats.denied += 1;
      return selected(optionId);
    } catch {
      // Nobody will consume an answer any more (the attempt API says what that leaves).
      await this.attempt.abandonPermission(req).catch(() => {});
      return CANCELLED;
    }
  }
}
