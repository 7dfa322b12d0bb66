// The agent surface (http-api.md "Agent surface"): what an agent working on an attempt may do
// with its task token. HTTP routes and the MCP tools are both thin layers over this class.
import { normalizeOptions } from "../../engine/ask.ts";
import type { Json } from "../../engine/domain.ts";
import type { Engine } from "../../engine/engine.ts";
import { appendLog } from "../../engine/work-log.ts";
import { formValidator, schemaIssues } from "../../lib/json-schema.ts";
import { ServiceError } from "../errors.ts";
import type { AgentTask, AnswerPoll, Ask, AskOut, LogRef, Ok } from "../schemas/index.ts";
import { logView } from "../views/records.ts";
import type { AgentSessions } from "./agent-sessions.ts";
import { authorizeTask, requireStillLive } from "./task-tokens.ts";

export const MAX_POLL_WAIT_S = 120;

export class AgentService {
  constructor(
    private readonly engine: Engine,
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
    const entry = await this.engine.uow.run(async (work) => {
      await requireStillLive(work.tx, task);
      return appendLog(work, {
        run_id: task.run_id,
        node: task.node,
        task_id: task.id,
        author: "agent",
        kind: null,
        text,
      });
    });
    return { log_id: entry.id };
  }

  async submit(taskId: number, token: string | undefined, payload: unknown): Promise<Ok> {
    const task = await authorizeTask(this.engine, taskId, token);
    const session = this.sessions.get(task.id);
    if (session?.validate && !session.validate(payload)) {
      const errors = schemaIssues(session.validate.errors, ["body"]);
      await this.engine.uow.run(async (work) => {
        await requireStillLive(work.tx, task);
        work.emit("submission.rejected", task.run_id, task.id, { node: task.node, errors });
      });
      throw new ServiceError(
        "validation",
        "The submission does not fit the declared output model.",
        {
          errors,
          schema: session.outputSchema,
        },
      );
    }
    await this.engine.uow.run(async (work) => {
      await requireStillLive(work.tx, task);
      const sub = await work.tx.insertSubmission({
        task_id: task.id,
        created: work.now,
        payload: (payload ?? null) as Json,
      });
      work.emit("submission.accepted", task.run_id, task.id, {
        node: task.node,
        submission_id: sub.id,
      });
    });
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
    const options = normalizeOptions(body.options);
    const mode = options ? "options" : body.schema ? "form" : "text";
    // Compiled now, not when someone answers: a form nobody can answer is refused to its asker.
    // (A schema sent with options is stored and served too, so it is held to the same rules.)
    const refused = body.schema ? formValidator(body.schema) : null;
    if (typeof refused === "string") {
      throw new ServiceError("validation", "The form's schema cannot be used.", {
        errors: [{ loc: ["body", "schema"], msg: refused, type: "schema_invalid" }],
      });
    }
    const req = await this.engine.uow.run(async (work) => {
      await requireStillLive(work.tx, task);
      const stored = await work.tx.insertRequest({
        run_id: task.run_id,
        task_id: task.id,
        node: task.node,
        kind: "question",
        mode,
        source: "agent",
        ordinal: null,
        prompt: body.prompt,
        options,
        schema: (body.schema ?? null) as Record<string, Json> | null,
        tool_call: null,
        answered_by: null,
        answer: null,
        stale: false,
        created: work.now,
        answered: null,
      });
      work.emit("request.opened", task.run_id, task.id, {
        kind: stored.kind,
        mode,
        node: task.node,
        ordinal: null,
        request_id: stored.id,
        source: "agent",
      });
      return stored;
    });
    return { request_id: req.id, mode };
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
    const read = async () => {
      const req = await this.engine.store.getRequest(requestId);
      if (!req || req.task_id !== task.id) {
        throw new ServiceError(
          "not_found",
          `Request ${requestId} does not exist for task ${task.id}.`,
        );
      }
      return req;
    };
    let req = await read();
    if (!req.answered_by && seconds > 0) {
      await this.#answered(requestId, seconds * 1000);
      req = await read();
    }
    if (!req.answered_by) return { request_id: req.id, answered: false };
    return { request_id: req.id, answered: true, answer: req.answer, answered_by: req.answered_by };
  }

  #answered(requestId: number, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(finish, ms);
      const unsubscribe = this.engine.bus.subscribe((e) => {
        if (e.name === "request.answered" && e.data.request_id === requestId) finish();
      });
      // The answer may have committed between the caller's read and the subscription.
      void this.engine.store.getRequest(requestId).then((r) => r?.answered_by && finish());
      function finish() {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
  }
}
