// One log line per request, written by fastify when the response is done: request id (`reqId`),
// method, path, status and time taken; fastify's own "incoming request" line is not written.
// Never a credential: the path is logged without its query string (where `access_token` may
// ride), and no header is logged (a request object that reaches a log line is reduced to its
// method and path by the logger's serializer). Probes that arrive every few seconds (health,
// readiness, metrics) are logged at debug, not info.
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";

export function pathOnly(url: string): string {
  const cut = url.indexOf("?");
  return cut === -1 ? url : url.slice(0, cut);
}

const PROBES = new Set(["/api/health", "/api/health/ready", "/metrics"]);

const lineOf = (request: FastifyRequest, reply: FastifyReply) => ({
  method: request.method,
  path: pathOnly(request.url),
  status: reply.statusCode,
  duration_ms: Math.round(reply.elapsedTime * 10) / 10,
});

export class RequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const line = lineOf(request, reply);
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else if (PROBES.has(line.path)) reply.log.debug(line, "request completed");
    else reply.log.info(line, "request completed");
  }
}

/**
 * fastify writes its line when a response finishes; a response the client left first (an event
 * stream it closed, a long poll it gave up) never does, so its line is written when it closes.
 */
export function logUnfinished(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.raw.once("close", () => {
      if (reply.raw.writableFinished) return;
      reply.log.info(lineOf(request, reply), "request closed by the client before its end");
    });
    done();
  });
}
