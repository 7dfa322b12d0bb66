// The security headers of every HTML page the server answers: the console (at `/`, its own
// routes, /index.html, the page saying it is not built), Swagger UI at /docs and Redoc at /redoc.
// They are added in one hook, by the response's content type, rather than by each route: a page
// served by a plugin (Swagger UI's) or added later cannot go out without them. Above all no page
// may be framed by another site, where a click on our buttons could be stolen.
import type { FastifyInstance } from "fastify";

/**
 * Defence in depth behind the markdown sanitizer: no inline scripts or event handlers run, and
 * nothing loads from another origin (the pages work offline). 'unsafe-eval' stays because the
 * console's JSON-Schema form validator (ajv) compiles schemas to code.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join("; ");

export const HTML_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": PAGE_CSP,
  // frame-ancestors for browsers that predate it.
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
};

/** Call before any route or plugin is registered, so that every one of them inherits the hook. */
export function installHtmlHeaders(app: FastifyInstance): void {
  app.addHook("onSend", async (_request, reply, payload) => {
    const type = reply.getHeader("content-type");
    if (typeof type === "string" && type.startsWith("text/html")) reply.headers(HTML_HEADERS);
    return payload;
  });
}
