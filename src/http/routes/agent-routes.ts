// /api/agent/tasks/{task_id}/...: the agent surface. No operator token: every route checks the
// task token in `X-Service-Token` through AgentService (422 when absent, 403 when refused).
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { AgentService } from "../../service/agent/agent-service.ts";
import {
  AgentRequestPath,
  AgentTask,
  AnswerPoll,
  Ask,
  AskOut,
  LogRef,
  LogText,
  Ok,
  TaskPath,
  WaitQuery,
} from "../../service/schemas/index.ts";
import { refusals, type ZodApp } from "./route-kit.ts";

const tags = ["agent"];
const TASK = { security: [{ taskToken: [] }] };
const config = { auth: "task" as const };

export function tokenOf(request: FastifyRequest): string | undefined {
  const value = request.headers["x-service-token"];
  return typeof value === "string" ? value : undefined;
}

/**
 * The task token is the credential, so it is judged before the path and body are validated: a
 * refused token is 403 whatever the body holds. (The size cap and JSON syntax are checked while
 * the body is read, earlier still: a body over the cap is 413 on every route.)
 */
export function taskTokenCheck(agent: AgentService) {
  return async (request: FastifyRequest): Promise<void> => {
    const raw = (request.params as { task_id?: string } | undefined)?.task_id;
    await agent.authorize(raw === undefined ? null : raw, tokenOf(request));
  };
}

export function registerAgentRoutes(app: ZodApp, agent: AgentService): void {
  const preValidation = taskTokenCheck(agent);
  app.get(
    "/api/agent/tasks/:task_id",
    {
      config,
      preValidation,
      schema: {
        ...TASK,
        tags,
        operationId: "agentGetTask",
        summary: "The attempt as its agent sees it",
        params: TaskPath,
        response: { 200: AgentTask, ...refusals(403, 422) },
      },
    },
    (request) => agent.getTask(request.params.task_id, tokenOf(request)),
  );
  app.post(
    "/api/agent/tasks/:task_id/ask",
    {
      config,
      preValidation,
      schema: {
        ...TASK,
        tags,
        operationId: "agentAsk",
        summary: "Open a request against the attempt (ask policy http only)",
        params: TaskPath,
        body: Ask,
        response: { 200: AskOut, ...refusals(403, 422) },
      },
    },
    (request) => agent.ask(request.params.task_id, tokenOf(request), request.body),
  );
  app.post(
    "/api/agent/tasks/:task_id/log",
    {
      config,
      preValidation,
      schema: {
        ...TASK,
        tags,
        operationId: "agentLog",
        summary: "Append a work-log entry with author agent",
        params: TaskPath,
        body: LogText,
        response: { 200: LogRef, ...refusals(403, 422) },
      },
    },
    (request) => agent.appendLog(request.params.task_id, tokenOf(request), request.body.text),
  );
  app.get(
    "/api/agent/tasks/:task_id/requests/:request_id",
    {
      config,
      preValidation,
      schema: {
        ...TASK,
        tags,
        operationId: "agentPollRequest",
        summary: "Wait up to `wait` seconds (0..120) for the answer",
        params: AgentRequestPath,
        querystring: WaitQuery,
        response: { 200: AnswerPoll, ...refusals(403, 404, 422) },
      },
    },
    (request) =>
      agent.poll(
        request.params.task_id,
        tokenOf(request),
        request.params.request_id,
        request.query.wait ?? 0,
      ),
  );
  app.post(
    "/api/agent/tasks/:task_id/submit",
    {
      config,
      preValidation,
      schema: {
        ...TASK,
        tags,
        operationId: "agentSubmit",
        summary: "Store a value for this attempt; the latest valid one wins",
        params: TaskPath,
        body: z.unknown(),
        response: { 200: Ok, ...refusals(403, 422) },
      },
    },
    (request) => agent.submit(request.params.task_id, tokenOf(request), request.body ?? null),
  );
}
