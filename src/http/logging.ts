// Request logging that never records a credential: requests are logged by method and path only
// (no query string, where `access_token` may ride, and no headers), and any header that slips
// into a log object is redacted.
import type { FastifyRequest } from "fastify";

export type LoggerSetting = boolean | Record<string, unknown> | undefined;

export function pathOnly(url: string): string {
  const cut = url.indexOf("?");
  return cut === -1 ? url : url.slice(0, cut);
}

const REDACTED = [
  "req.headers.authorization",
  'req.headers["x-service-token"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-service-token"]',
];

/** fastify `logger` options with our serializers and redaction merged in. */
export function loggerOptions(setting: LoggerSetting): false | Record<string, unknown> {
  if (!setting) return false;
  const base = setting === true ? {} : setting;
  const serializers = (base.serializers as Record<string, unknown> | undefined) ?? {};
  return {
    ...base,
    redact: { paths: REDACTED, censor: "[redacted]" },
    serializers: {
      ...serializers,
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: pathOnly(request.url),
        remoteAddress: request.ip,
      }),
    },
  };
}
