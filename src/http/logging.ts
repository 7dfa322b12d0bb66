// One log line per request, written by fastify when the response is done: request id (`reqId`),
// method, path, status and time taken; fastify's own "incoming request" line is not written.
// Never a credential: the path is logged without its query string (where `access_token` may
// ride), and no header is logged (a request object that reaches a log line is reduced to its
// method and path by the logger's serializer). Probes that arrive every few seconds (health,
// readiness, metrics) are logged at debug, not info.
import { type FastifyReply, type FastifyRequest, LogController } from "fastify";

export function pathOnly(url: string): string {
  const cut = url.indexOf("?");
  return cut === -1 ? url : url.slice(0, cut);
}

const PROBES = new Set(["/api/health", "/api/health/ready", "/metrics"]);

export class RequestLines extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const path = pathOnly(request.url);
    const line = {
      method: request.method,
      path,
      status: reply.statusCode,
      duration_ms: Math.round(reply.elapsedTime * 10) / 10,
    };
    if (error) reply.log.error({ ...line, err: error }, "request errored");
    else if (PROBES.has(path)) reply.log.debug(line, "request completed");
    else reply.log.info(line, "request completed");
  }
}
