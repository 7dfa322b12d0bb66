// The agent surface (http-api.md "Agent surface"): what an agent working on an attempt may do
// with its task token. HTTP routes and the MCP tools are both thin layers over this class; what
// it writes (submissions, asks, log entries) it writes through the engine's attempt API, which
// checks the token's attempt again when the write commits. The ask policy and output model are
// the agent session's (agent-sessions.ts), judged here before the engine is asked.
import {
  appendAgentLog,
  awaitAgentAnswer,
  type EngineCore,
  openAgentQuestion,
  rejectAgentSubmission,
  submitAgentResult,
} from "../../engine/index.ts";
import { formValidator, schemaIssues } from "../../lib/json-schema.ts";
import { commanded, ServiceError } from "../errors.ts";
import type { AgentTask, AnswerPoll, Ask, AskOut, LogRef, Ok } from "../schemas/index.ts";
import { logView } from "../views/records.ts";
import type { AgentSessions } from "./agent-sessions.ts";
import { authorizeTask } from "./task-tokens.ts";

export const MAX_POLL_WAIT_S = 120;

export class AgentService {
  constructor(
    private readonly engine: EngineCore,
    private readonly sessions: AgentSessions,
  ) {}

  /**
   * Checks a token before anything else about the request is read. `taskId` is the path's raw
   * text (null where the path names no task): one that is not the token's task is refused.
   */
  async authorize(taskId: string | null, token: string | undefined): Promise<void> {
    const id = taskId === null ? null : /^\d+$/.test(taskId) ? Number(taskId) : -1;
    await authorizeTask(this.engine, id, token);
  }

  /** The attempt a token belongs to (the MCP server has no task id in its URL). */
  async taskOfToken(token: string | undefined): Promise<number> {
    return (await authorizeTask(this.engine, null, token)).id;
  }

  askPolicy(taskId: number): "never" | "http" {
    return this.sessions.get(taskId)?.ask ?? "never";
  }

  async getTask(taskId: number, token: string | undefined): Promise<AgentTask> {
    const task = await authorizeTask(this.engine, taskId, token);
    const run = (await this.engine.store.getRun(task.run_id))!;
    const log = (await this.engine.store.listLog(run.id)).filter((e) => e.kind !== "stats");
    const session = this.sessions.get(task.id);
    const view: AgentTask = {
      task_id: task.id,
      run_id: run.id,
      workflow: run.workflow,
      node: task.node,
      attempt: task.attempt,
      title: run.title,
      description: run.description,
      log: log.map(logView),
      input: task.payload_present ? task.payload : null,
    };
    if (session?.outputSchema) view.output_schema = session.outputSchema;
    return view;
  }

  async appendLog(taskId: number, token: string | undefined, text: string): Promise<LogRef> {
    const task = await authorizeTask(this.engine, taskId, token);
    const entry = await commanded(appendAgentLog(this.engine, task, text));
    return { log_id: entry.id };
  }

  async submit(taskId: number, token: string | undefined, payload: unknown): Promise<Ok> {
    const task = await authorizeTask(this.engine, taskId, token);
    const session = this.sessions.get(task.id);
    if (session?.validate && !session.validate(payload)) {
      const errors = schemaIssues(session.validate.errors, ["body"]);
      await commanded(rejectAgentSubmission(this.engine, task, errors));
      throw new ServiceError(
        "validation",
        "The submission does not fit the declared output model.",
        {
          errors,
          schema: session.outputSchema,
        },
      );
    }
    await commanded(submitAgentResult(this.engine, task, payload));
    return { ok: true };
  }

  async ask(taskId: number, token: string | undefined, body: Ask): Promise<AskOut> {
    const task = await authorizeTask(this.engine, taskId, token);
    if (this.sessions.get(task.id)?.ask !== "http") {
      throw new ServiceError(
        "forbidden",
        "This attempt's agent may not ask: its ask policy is not http.",
      );
    }
    // Compiled now, not when someone answers: a form nobody can answer is refused to its asker.
    // (A schema sent with options is stored and served too, so it is held to the same rules.)
    const refused = body.schema ? formValidator(body.schema) : null;
    if (typeof refused === "string") {
      throw new ServiceError("validation", "The form's schema cannot be used.", {
        errors: [{ loc: ["body", "schema"], msg: refused, type: "schema_invalid" }],
      });
    }
    const req = await commanded(openAgentQuestion(this.engine, task, body));
    return { request_id: req.id, mode: req.mode };
  }

  /** Waits up to `wait` seconds (clamped to 0..120) for the answer; claims nothing. */
  async poll(
    taskId: number,
    token: string | undefined,
    requestId: number,
    wait = 0,
  ): Promise<AnswerPoll> {
    const task = await authorizeTask(this.engine, taskId, token);
    const seconds = Math.min(Math.max(Number.isFinite(wait) ? wait : 0, 0), MAX_POLL_WAIT_S);
    const req = await commanded(awaitAgentAnswer(this.engine, task, requestId, seconds * 1000));
    if (!req.answered_by) return { request_id: req.id, answered: false };
    return { request_id: req.id, answered: true, answer: req.answer, answered_by: req.answered_by };
  }
}
