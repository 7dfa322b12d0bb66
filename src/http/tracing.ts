// A span per HTTP request (`GET /api/runs/:run_id`), through `@opentelemetry/api` only: without
// an SDK registered in the process the span does not record and nothing more is done. With one,
// the rest of the request runs inside the span's context, so spans made while serving it (a run
// submitted, a store call an instrumentation sees) nest under it, and a `traceparent` header
// from the caller (read by the SDK's propagator) makes it a child of the caller's span. The URL
// is recorded without its query string, where `access_token` may ride.
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import type { FastifyInstance } from "fastify";
import { pathOnly } from "./logging.ts";

export function installTracing(app: FastifyInstance, version: string): void {
  const tracer = trace.getTracer("yardmaster.http", version);
  app.addHook("onRequest", (request, reply, done) => {
    const parent = propagation.extract(context.active(), request.headers);
    const route = request.routeOptions.url ?? "(no route)";
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          "http.request.method": request.method,
          "http.route": route,
          "url.path": pathOnly(request.url),
        },
      },
      parent,
    );
    if (!span.isRecording()) return done();
    // `close` comes after the response finished, or when the client left first (an event
    // stream it closed), which fastify's own end-of-response hooks do not hear of.
    reply.raw.once("close", () => {
      const status = reply.raw.statusCode;
      span.setAttribute("http.response.status_code", status);
      if (!reply.raw.writableFinished) span.setAttribute("yardmaster.http.client_left", true);
      if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), done);
  });
}
