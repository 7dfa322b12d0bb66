// /api/requests: the inbox of requests for human input, and the operator's answer.
import { z } from "zod";
import type { OperatorService } from "../../service/api.ts";
import { Answer, RequestPath, RequestsQuery, RequestView } from "../../service/schemas/index.ts";
import { operatorOf } from "../auth-hook.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["requests"];

export function registerRequestRoutes(app: ZodApp, service: OperatorService): void {
  app.get(
    "/api/requests",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "listRequests",
        summary: "Requests, oldest first; `pending` keeps those a person can still act on",
        querystring: RequestsQuery,
        response: { 200: z.array(RequestView), ...refusals(401, 422) },
      },
    },
    (request) => service.listRequests(request.query),
  );
  app.get(
    "/api/requests/:request_id",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "getRequest",
        summary: "One request, answered or not",
        params: RequestPath,
        response: { 200: RequestView, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.getRequest(request.params.request_id),
  );
  app.post(
    "/api/requests/:request_id/answer",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "answerRequest",
        summary: "Record the one answer",
        params: RequestPath,
        body: Answer,
        response: { 200: RequestView, ...refusals(401, 404, 409, 422) },
      },
    },
    (request) =>
      service.answerRequest(request.params.request_id, request.body, operatorOf(request)),
  );
}
