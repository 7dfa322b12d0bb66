// The one catalogue of refusal codes (http-api.md "Errors"). Each code maps once to its HTTP
// status here; the HTTP layer renders every ServiceError as `{error, code, ...extras}`.
// Statuses the spec leaves "not shown" are chosen here and listed in docs/errors.md.

import { EngineError } from "../engine/index.ts";
import type { ValidationIssue } from "../lib/validation-issue.ts";

export type { ValidationIssue };

export const ERROR_CATALOGUE = {
  not_found: 404,
  conflict: 409,
  forbidden: 403,
  unauthorized: 401,
  validation: 422,
  invalid_option: 422,
  already_answered: 409,
  stale_request: 409,
  graph_error: 422,
  unknown_workflow: 404,
  unknown_node: 404,
  payload_too_large: 413,
  plugin_error: 500,
  workflow_load_failed: 422,
  unknown_pool: 422,
  registration_unavailable: 503,
  persist_failed: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/**
 * The other statuses a code is sent with: where HTTP or MCP fixes the status of a fault, the
 * status is theirs and the code still names the fault (docs/errors.md, "Statuses set by the
 * protocol"): 400 for a request that cannot be read (malformed JSON, an unreadable request
 * head), 431 for a request head over the size limit, 405 for the methods MCP's transport
 * refuses on /mcp/agent, 429 for an event stream past the cap, 503 for a readiness probe of a
 * server that cannot take work now.
 */
export const PROTOCOL_STATUSES: Partial<Record<ErrorCode, readonly number[]>> = {
  validation: [400, 408],
  payload_too_large: [431],
  not_found: [405],
  conflict: [429, 503],
};

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly extras: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    extras: Record<string, unknown> = {},
    options?: { cause?: unknown; status?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ServiceError";
    this.code = code;
    this.status = options?.status ?? ERROR_CATALOGUE[code];
    this.extras = extras;
  }

  toBody(): Record<string, unknown> {
    return { ...this.extras, error: this.message, code: this.code };
  }
}

/**
 * The catalogue's reading of an engine refusal: the same code, message and fields. Anything
 * else passes through unchanged (an internal fault stays one).
 */
export function fromDomain(err: unknown): unknown {
  if (!(err instanceof EngineError)) return err;
  return new ServiceError(err.code, err.message, err.details, { cause: err });
}

/**
 * Awaits an engine command, its refusal read as the catalogue's (fromDomain), so the HTTP routes
 * and the MCP tools (which turn only a ServiceError into a tool result) see it alike.
 */
export async function commanded<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (err) {
    throw fromDomain(err);
  }
}

export const notFound = (what: string, id: unknown) =>
  new ServiceError("not_found", `${what} ${JSON.stringify(id)} does not exist.`);

export const conflict = (message: string, extras?: Record<string, unknown>) =>
  new ServiceError("conflict", message, extras);

export const validation = (message: string, errors: ValidationIssue[]) =>
  new ServiceError("validation", message, { errors });
