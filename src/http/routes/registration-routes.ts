// Hot registration (POST, PUT, DELETE /api/workflows...) and a workflow's source. Without a
// registrar the registration routes still exist and answer 503 `registration_unavailable`.
import type { FastifyReply } from "fastify";
import type { OperatorService } from "../../service/api.ts";
import { ServiceError } from "../../service/errors.ts";
import type { Registered, WorkflowRegistrar } from "../../service/registration/api.ts";
import {
  PersistQuery,
  RegisterWorkflow,
  ReloadWorkflow,
  RemovedWorkflowOut,
  SourceOut,
  WorkflowOut,
  WorkflowPath,
} from "../../service/schemas/index.ts";
import { OPERATOR, refusals, type ZodApp } from "./route-kit.ts";

const tags = ["workflows"];

/** Names the configuration file a response wrote (http-api.md Workflows). */
export const PERSISTED_HEADER = "X-Service-Persisted";

function registrarOf(registrar: WorkflowRegistrar | undefined): WorkflowRegistrar {
  if (registrar) return registrar;
  throw new ServiceError(
    "registration_unavailable",
    "This server was built without a registrar; workflows cannot be registered over HTTP.",
  );
}

/**
 * A header value carries only visible ASCII: Node refuses anything above U+00FF (the answer
 * became a broken 500 after the row was already written) and sends U+0080..U+00FF as latin-1.
 * A path outside ASCII is sent percent-encoded as UTF-8 (`%` too, so `decodeURIComponent`
 * gives the path back); an ASCII path is sent as it is.
 */
export function persistedHeaderValue(file: string): string {
  if (/^[\x20-\x7e]*$/.test(file)) return file;
  return file.replace(/[^\x20-\x24\x26-\x7e]/gu, (c) => encodeURIComponent(c));
}

function withPersisted<T>(reply: FastifyReply, result: Registered<T>): T {
  if (result.persisted !== null) {
    reply.header(PERSISTED_HEADER, persistedHeaderValue(result.persisted));
  }
  return result.value;
}

export function registerRegistrationRoutes(
  app: ZodApp,
  deps: { service: OperatorService; registrar?: WorkflowRegistrar },
): void {
  app.post(
    "/api/workflows",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "registerWorkflow",
        summary: "Load a target and register its workflow, without restart",
        body: RegisterWorkflow,
        response: { 201: WorkflowOut, ...refusals(401, 409, 422, 500, 503) },
      },
    },
    async (request, reply) => {
      const result = await registrarOf(deps.registrar).register(request.body);
      return reply.code(201).send(withPersisted(reply, result));
    },
  );
  app.put(
    "/api/workflows/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "reloadWorkflow",
        summary: "Reload a workflow from its target; the next task of every run uses it",
        params: WorkflowPath,
        // Every field is optional: no body at all reloads as registered, like `{}`.
        body: ReloadWorkflow.nullish(),
        response: { 200: WorkflowOut, ...refusals(401, 404, 409, 422, 500, 503) },
      },
    },
    async (request, reply) => {
      const registrar = registrarOf(deps.registrar);
      return withPersisted(reply, await registrar.reload(request.params.name, request.body ?? {}));
    },
  );
  app.delete(
    "/api/workflows/:name",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "removeWorkflow",
        summary: "Unregister a workflow, stopping its in-flight attempts where they are",
        params: WorkflowPath,
        querystring: PersistQuery,
        response: { 200: RemovedWorkflowOut, ...refusals(401, 404, 422, 500, 503) },
      },
    },
    async (request, reply) => {
      const registrar = registrarOf(deps.registrar);
      const persist = request.query.persist ?? false;
      return withPersisted(reply, await registrar.remove(request.params.name, { persist }));
    },
  );
  app.get(
    "/api/workflows/:name/source",
    {
      schema: {
        ...OPERATOR,
        tags,
        operationId: "workflowSource",
        summary: "The workflow module's text and node lines",
        params: WorkflowPath,
        response: { 200: SourceOut, ...refusals(401, 404) },
      },
    },
    (request) => {
      if (!deps.service.workflowSource) {
        throw new ServiceError("not_found", "This server cannot produce workflow sources.");
      }
      return deps.service.workflowSource(request.params.name);
    },
  );
}
