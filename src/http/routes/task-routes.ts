// /api/tasks/{task_id}/...: one attempt, its transcript, and the operator's task commands.
import { z } from "zod";
import type { OperatorService } from "../../service/api.ts";
import {
  CursorQuery,
  Move,
  Ok,
  RejectedSubmission,
  SetStatus,
  StreamOut,
  TaskDetail,
  TaskError,
  TaskExplain,
  TaskPath,
  TaskRef,
} from "../../service/schemas/index.ts";
import { operatorOf } from "../auth-hook.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["tasks"];

export function registerTaskRoutes(app: ZodApp, service: OperatorService): void {
  app.get(
    "/api/tasks/:task_id",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "getTask",
        summary: "One attempt with its accepted submissions",
        params: TaskPath,
        response: { 200: TaskDetail, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.getTask(request.params.task_id),
  );
  app.post(
    "/api/tasks/:task_id/move",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "moveTask",
        summary: "Cancel the attempt and enqueue its payload at another node",
        params: TaskPath,
        body: Move,
        response: { 200: TaskRef, ...refusals(401, 404, 409, 422) },
      },
    },
    (request) => service.moveTask(request.params.task_id, request.body, operatorOf(request)),
  );
  app.post(
    "/api/tasks/:task_id/retry",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "retryTask",
        summary: "Enqueue the next attempt of a stopped task",
        params: TaskPath,
        response: { 200: TaskRef, ...refusals(401, 404, 409, 422) },
      },
    },
    (request) => service.retryTask(request.params.task_id, operatorOf(request)),
  );
  app.post(
    "/api/tasks/:task_id/status",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "setTaskStatus",
        summary: "Write ready, cancelled or dead_letter",
        params: TaskPath,
        body: SetStatus,
        response: { 200: Ok, ...refusals(401, 404, 409, 422) },
      },
    },
    (request) => service.setTaskStatus(request.params.task_id, request.body, operatorOf(request)),
  );
  app.get(
    "/api/tasks/:task_id/explain",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "explainTask",
        summary: "Why the task is not running: pool full, run paused, queued behind, ...",
        params: TaskPath,
        response: { 200: TaskExplain, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.explainTask(request.params.task_id),
  );
  app.get(
    "/api/tasks/:task_id/rejections",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "taskRejections",
        summary: "The attempt's rejected agent submissions, with their validation errors",
        params: TaskPath,
        response: { 200: z.array(RejectedSubmission), ...refusals(401, 404, 422) },
      },
    },
    (request) => service.taskRejections(request.params.task_id),
  );
  app.get(
    "/api/tasks/:task_id/error",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "taskError",
        summary: "The attempt's error with the stack where its body threw",
        params: TaskPath,
        response: { 200: TaskError, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.taskError(request.params.task_id),
  );
  app.get(
    "/api/tasks/:task_id/stream",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "taskStream",
        summary: "Transcript chunks after a sequence number",
        params: TaskPath,
        querystring: CursorQuery,
        response: { 200: StreamOut, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.taskStream(request.params.task_id, request.query),
  );
}
