// /api/workflows: the registered workflows as the engine has them.
import { z } from "zod";
import type { OperatorService } from "../../service/api.ts";
import { FailureGroup, WorkflowOut, WorkflowPath } from "../../service/schemas/index.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["workflows"];

export function registerWorkflowRoutes(app: ZodApp, service: OperatorService): void {
  app.get(
    "/api/workflows",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "listWorkflows",
        summary: "Registered workflows by name",
        response: { 200: z.array(WorkflowOut), ...refusals(401) },
      },
    },
    () => service.listWorkflows(),
  );
  app.get(
    "/api/workflows/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "getWorkflow",
        summary: "One workflow",
        params: WorkflowPath,
        response: { 200: WorkflowOut, ...refusals(401, 404) },
      },
    },
    (request) => service.getWorkflow(request.params.name),
  );
  app.get(
    "/api/workflows/:name/failures",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "workflowFailures",
        summary: "The workflow's failed attempts grouped by message, most frequent first",
        params: WorkflowPath,
        response: { 200: z.array(FailureGroup), ...refusals(401, 404) },
      },
    },
    (request) => service.workflowFailures(request.params.name),
  );
}
