// Shared pieces of route declarations: the typed app and the documented refusals.

import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
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
