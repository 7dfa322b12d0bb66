// Shared pieces of route declarations: the typed app and the documented refusals.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from "fastify";
import type { FastifySerializerCompiler } from "fastify/types/schema.js";
import { serializerCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { ApiError } from "../../service/schemas/index.ts";

export type ZodApp = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Refusal statuses a route documents; each is an ApiError body. */
export function refusals<S extends number>(...statuses: S[]): Record<S, typeof ApiError> {
  return Object.fromEntries(statuses.map((s) => [s, ApiError])) as Record<S, typeof ApiError>;
}

/** Every operator route may answer 401 when a token is required. */
export const OPERATOR = { security: [{ bearer: [] }] };

type ZodRoute = Parameters<typeof serializerCompiler>[0];

/**
 * A route's serializer that sends the answers of the given statuses as plain JSON, without
 * checking them against the response schema (which stays in the OpenAPI description); other
 * statuses are checked. Only for answers built by the service from typed values (a typed view
 * whose output the tests check against the schema, or a `Created` of a run id).
 */
export function trusted(...statuses: number[]): FastifySerializerCompiler<any> {
  const plain = new Set(statuses.map(String));
  return (route) =>
    plain.has(String(route.httpStatus))
      ? (data) => JSON.stringify(data)
      : serializerCompiler(route as ZodRoute);
}

/** `trusted(200)`: a 200 answer sent as plain JSON. */
export const trustedOk = trusted(200);

interface DocumentedSchema {
  hide?: boolean;
  security?: Record<string, unknown>[];
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  response?: Record<string | number, unknown>;
}

/**
 * Documents the refusals every route of a kind can give, whatever it lists itself (http-api.md
 * "Endpoints"): 401 on an operator route; 422 on one with a body or parameters; 400 (malformed
 * JSON) and 413 (body over the cap) on one with a body. Install before the routes.
 */
export function documentCommonRefusals(app: FastifyInstance): void {
  app.addHook("onRoute", (route) => {
    const schema = route.schema as DocumentedSchema | undefined;
    if (!schema || schema.hide || !schema.response) return;
    const add = (status: number) => {
      schema.response![status] ??= ApiError;
    };
    if (schema.security?.some((s) => "bearer" in s)) add(401);
    if (schema.params || schema.querystring || schema.body) add(422);
    if (schema.body) [400, 413].forEach(add);
  });
}
