// Faults Node's HTTP parser finds before fastify has a request to route: a request head (URL and
// headers) over the parser's size limit, or a request line, header or Content-Length it cannot
// read. Nothing of the request can be trusted then, so the answer is written straight to the
// socket, which is closed after it, in the same `{error, code, ...}` shape as every refusal:
// 431 `payload_too_large` for an oversized head, 400 `validation` (with `errors`) for an
// unreadable one, 408 `validation` for one that arrived too slowly (docs/errors.md, "Statuses
// set by the protocol").
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { excerpt } from "../lib/excerpt.ts";

interface ParserError extends Error {
  code?: string;
  reason?: string;
}

/** Where in the request an llhttp error code says the fault is. */
function locOf(code: string): string[] {
  if (code.includes("CONTENT_LENGTH")) return ["header", "content-length"];
  if (code.includes("TRANSFER_ENCODING")) return ["header", "transfer-encoding"];
  if (code.includes("CHUNK") || code.includes("BODY")) return ["body"];
  if (code.includes("METHOD") || code.includes("URL") || code.includes("VERSION")) return ["path"];
  return ["header"];
}

/** The status and body answering a parser error. */
export function renderClientError(err: ParserError): { status: number; body: object } {
  const code = err.code ?? "";
  if (code === "HPE_HEADER_OVERFLOW") {
    return {
      status: 431,
      body: {
        error: "The request's URL and headers are larger than the server accepts.",
        code: "payload_too_large",
      },
    };
  }
  const msg = excerpt(err.reason ?? err.message);
  return {
    status: 400,
    body: {
      error: "The request could not be read as HTTP.",
      code: "validation",
      errors: [{ loc: locOf(code), msg, type: "http_invalid" }],
    },
  };
}

function rawResponse(status: number, body: object): string {
  const text = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Length: ${Buffer.byteLength(text)}`,
    "Content-Type: application/json; charset=utf-8",
    "Connection: close",
    "",
    text,
  ].join("\r\n");
}

// A request whose head or body did not arrive within `header_timeout` / `request_timeout`
// (http/connection-limits.ts): the client failed to deliver it, so it is a `validation` fault
// with HTTP's own status for it.
const TIMEOUT_RESPONSE = rawResponse(408, {
  error: "The request did not arrive in time.",
  code: "validation",
  errors: [
    {
      loc: [],
      msg: "the request's headers or body arrived too slowly (header_timeout, request_timeout)",
      type: "request_timeout",
    },
  ],
});

/** fastify's `clientErrorHandler`: answers what the parser refused, then closes the socket. */
export function handleClientError(err: ParserError, socket: Socket): void {
  // A reset or closed connection has nobody left to answer.
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  if (socket.writable) {
    if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") socket.write(TIMEOUT_RESPONSE);
    else {
      const { status, body } = renderClientError(err);
      socket.write(rawResponse(status, body));
    }
  }
  socket.destroy(err);
}
