// The one structured logger of a server: pino, which fastify logs through too. JSON lines for
// machines, or readable lines for a person at a terminal (pretty-lines.ts). Nothing logged may
// hold a credential; the redaction here is a last guard for a header or a secret-named field
// that slips into a log object, not the way secrets are kept out (they are never logged).
import { type DestinationStream, type Logger, pino } from "pino";
import type { LogLevel } from "../config/index.ts";
import { prettyLines } from "./pretty-lines.ts";

export type { Logger };

export interface LoggerOptions {
  level: LogLevel;
  format: "json" | "pretty";
  /**
   * Where lines go. Absent: stderr, through a buffer written 4 KiB at a time, and at least every
   * quarter of a second, off the event loop (what is left is written when the process exits). A
   * write per line cost a busy server a tenth of its CPU, and a synchronous one to a pipe stalls
   * the event loop whenever the reader lags.
   */
  destination?: DestinationStream;
  /** Colours in pretty lines (a terminal that wants them). */
  colours?: boolean;
}

// Named paths only: a wildcard (`*.token`) makes every line walk its fields, a third of a
// line's cost, for fields no line has.
const REDACTED = [
  "req.headers.authorization",
  'req.headers["x-service-token"]',
  "req.headers.cookie",
  "headers.authorization",
  'headers["x-service-token"]',
  "headers.cookie",
  "token",
  "password",
];

export function createLogger(options: LoggerOptions): Logger {
  const out =
    options.destination ??
    pino.destination({ dest: 2, sync: false, minLength: 4096, periodicFlush: 250 });
  const destination =
    options.format === "pretty" ? prettyLines(out, options.colours ?? false) : out;
  return pino(
    {
      level: options.level,
      base: { pid: process.pid },
      redact: { paths: REDACTED, censor: "[redacted]" },
      serializers: {
        err: pino.stdSerializers.err,
        // fastify's own serializer would log the URL with its query string, and the host.
        req: (req: { method?: string; url?: string }) => ({
          method: req.method,
          path: req.url?.split("?")[0],
        }),
      },
    },
    destination,
  );
}

/** A logger that writes nothing: for servers started by code that did not ask for logs. */
export function silentLogger(): Logger {
  return pino({ level: "silent" });
}

/** `auto` means readable lines when the log goes to a terminal, JSON lines otherwise. */
export function resolveFormat(
  format: "auto" | "json" | "pretty",
  terminal: boolean,
): "json" | "pretty" {
  if (format !== "auto") return format;
  return terminal ? "pretty" : "json";
}
