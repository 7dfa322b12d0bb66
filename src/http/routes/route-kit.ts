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
 * A route's serializer that sends its 200 answer as plain JSON, without checking it against
 * the response schema (which stays in the OpenAPI description); other statuses are checked.
 * Only for answers built by a typed view whose output the tests check against the schema.
 */
export const trustedOk: FastifySerializerCompiler<any> = (route) =>
  String(route.httpStatus) === "200"
    ? (data) => JSON.stringify(data)
    : serializerCompiler(route as ZodRoute);
