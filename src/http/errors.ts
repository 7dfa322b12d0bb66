// Every refusal leaves the server here, rendered once as `{error, code, ...extras}`: service
// errors, request validation, body parsing, unknown routes and anything unexpected.
import { trace } from "@opentelemetry/api";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { excerpt } from "../lib/excerpt.ts";
import { ERROR_CATALOGUE, type ErrorCode, fromDomain, ServiceError } from "../service/errors.ts";
import { lingerAfterRefusal } from "./linger.ts";
import { pathOnly } from "./logging.ts";
import { RequestValidationError } from "./validation.ts";

export interface Rendered {
  status: number;
  body: Record<string, unknown>;
  /** True when the error is a fault of ours, to be logged with its cause. */
  unexpected: boolean;
}

/** A 500 is a bug, never a refusal the contract describes, so its code is outside the vocabulary. */
export const INTERNAL_CODE = "internal";

const refusal = (status: number, code: string, error: string, extras = {}): Rendered => ({
  status,
  body: { error, code, ...extras },
  unexpected: false,
});

// A `validation` refusal always carries `errors` (http-api.md "Errors"), even a framework's own.
const issue = (loc: string[], msg: string, type: string) => ({ errors: [{ loc, msg, type }] });
const bodyIssue = (msg: string, type: string) => issue(["body"], msg, type);

/** Fastify's own errors, by code, for the ones a client's input can cause. */
function renderFrameworkError(err: FastifyError): Rendered | undefined {
  switch (err.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return refusal(
        413,
        "payload_too_large",
        "The request body is larger than the server accepts.",
      );
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return refusal(
        400,
        "validation",
        "The request body is not valid JSON.",
        bodyIssue(err.message, "json_invalid"),
      );
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return refusal(
        400,
        "validation",
        "Content-Length does not match the body.",
        bodyIssue(err.message, "content_length"),
      );
    case "FST_ERR_MAX_PARAM_LENGTH":
      return refusal(
        422,
        "validation",
        "A path parameter is too long.",
        issue(["path"], excerpt(err.message), "string_too_long"),
      );
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return refusal(
        422,
        "validation",
        "Send request bodies as application/json.",
        bodyIssue(err.message, "media_type"),
      );
  }
  const status = err.statusCode ?? 500;
  if (status < 400 || status >= 500) return undefined;
  const code = codeForStatus(status);
  const where = err.code === "FST_ERR_BAD_URL" ? ["path"] : [];
  // The message may quote the URL: repeat an excerpt. The status is the code's own (400 stays
  // for an unreadable request), never one the catalogue does not list.
  const msg = excerpt(err.message);
  return refusal(
    status === 400 ? 400 : ERROR_CATALOGUE[code],
    code,
    msg,
    code === "validation" ? issue(where, msg, err.code) : {},
  );
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return "unauthorized";
  if (status === 403) return "forbidden";
  if (status === 404 || status === 405) return "not_found";
  if (status === 409) return "conflict";
  if (status === 413) return "payload_too_large";
  return "validation";
}

export function renderError(thrown: unknown): Rendered {
  // An engine refusal that reached the edge without the service's mapping still reads as one.
  const err = fromDomain(thrown);
  if (err instanceof ServiceError) {
    return { status: err.status, body: err.toBody(), unexpected: err.status >= 500 };
  }
  if (err instanceof RequestValidationError) {
    return refusal(422, "validation", err.message, { errors: err.issues });
  }
  if (err instanceof Error && typeof (err as FastifyError).code === "string") {
    const rendered = renderFrameworkError(err as FastifyError);
    if (rendered) return rendered;
  }
  return { status: 500, body: { error: "Internal error", code: INTERNAL_CODE }, unexpected: true };
}

/** Sends a rendered refusal as a ready JSON string, so no response schema reshapes it. */
export function sendError(
  err: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  const { status, body, unexpected } = renderError(err);
  if (unexpected) {
    request.log.error({ err }, "request failed");
    trace.getActiveSpan()?.recordException(err as Error);
  }
  if (status === 401) reply.header("www-authenticate", "Bearer");
  // Refused before the body was read: the client is still sending it.
  if (status === 413) lingerAfterRefusal(request, reply);
  return reply.code(status).type("application/json; charset=utf-8").send(JSON.stringify(body));
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply) => sendError(err, request, reply));
  app.setNotFoundHandler((request, reply) =>
    sendError(
      new ServiceError(
        "not_found",
        `No route ${request.method} ${excerpt(pathOnly(request.url))}.`,
      ),
      request,
      reply,
    ),
  );
}
