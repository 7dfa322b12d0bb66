// /api/runs/{run_id}/...: what happened in a run (events, graph, log, requests) and operator notes.
import { z } from "zod";
import type { OperatorService } from "../../service/api.ts";
import {
  CursorQuery,
  EventEnvelope,
  GraphOut,
  LogEntry,
  LogRef,
  LogText,
  RequestView,
  RunExplain,
  RunPath,
} from "../../service/schemas/index.ts";
import { operatorOf } from "../auth-hook.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["runs"];

export function registerRunHistoryRoutes(app: ZodApp, service: OperatorService): void {
  app.get(
    "/api/runs/:run_id/events",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "runEvents",
        summary: "One page of the run's stored events, oldest first",
        params: RunPath,
        querystring: CursorQuery,
        response: { 200: z.array(EventEnvelope), ...refusals(401, 404, 422) },
      },
    },
    (request) => service.runEvents(request.params.run_id, request.query),
  );
  app.get(
    "/api/runs/:run_id/graph",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "runGraph",
        summary: "The registered graph with this run's history",
        params: RunPath,
        response: { 200: GraphOut, ...refusals(401, 404) },
      },
    },
    (request) => service.runGraph(request.params.run_id),
  );
  app.get(
    "/api/runs/:run_id/explain",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "explainRun",
        summary: "Why the run's tasks are not running: a reason list for each open task",
        params: RunPath,
        response: { 200: RunExplain, ...refusals(401, 404) },
      },
    },
    (request) => service.explainRun(request.params.run_id),
  );
  app.get(
    "/api/runs/:run_id/log",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "runLog",
        summary: "The whole work log, oldest first",
        params: RunPath,
        response: { 200: z.array(LogEntry), ...refusals(401, 404) },
      },
    },
    (request) => service.runLog(request.params.run_id),
  );
  app.post(
    "/api/runs/:run_id/log",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "appendRunLog",
        summary: "Write an operator note under the run's current node",
        params: RunPath,
        body: LogText,
        response: { 200: LogRef, ...refusals(401, 404, 422) },
      },
    },
    (request) => service.appendRunLog(request.params.run_id, request.body, operatorOf(request)),
  );
  app.get(
    "/api/runs/:run_id/requests",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "runRequests",
        summary: "Every request the run opened, oldest first",
        params: RunPath,
        response: { 200: z.array(RequestView), ...refusals(401, 404) },
      },
    },
    (request) => service.runRequests(request.params.run_id),
  );
}
