// How long a client may take, and how many connections it may hold. Without these a client
// trickling its headers or body a byte at a time holds a connection for as long as it likes,
// and enough of them exhaust the process. Long answers are not cut: the request timeouts end
// when the request has arrived, so an event stream or an agent poll waiting 120 s for its
// answer is unaffected; only a connection silent both ways for IDLE_TIMEOUT_MS is closed.
import type { Server } from "node:http";
import type { FastifyServerOptions } from "fastify";

export interface ConnectionLimits {
  /** Longest wait for a request's headers. At most `requestTimeoutMs`. */
  headersTimeoutMs: number;
  /** Longest wait for a whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle connection waits for the client's next request. */
  keepAliveTimeoutMs: number;
  /** Most connections at once; one more is closed as soon as it is accepted. */
  maxConnections: number;
}

/** The configuration's defaults (config/build-server-config.ts), for apps built without one. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 2000,
};

/**
 * A connection with nothing read or written for this long is closed. Above the longest quiet
 * answer (an agent poll waits up to 120 s, an event stream pings every 15 s), so only a peer
 * that stopped reading, or went away without closing, meets it.
 */
export const IDLE_TIMEOUT_MS = 300_000;

/**
 * How often Node checks the header and request timeouts. Its default (30 s) would let a
 * connection outlive a short timeout by that much.
 */
const TIMEOUT_CHECK_MS = 1000;

/** The fastify (and Node http) options that carry the limits. */
export function connectionOptions(limits: ConnectionLimits): Pick<
  FastifyServerOptions,
  "requestTimeout" | "keepAliveTimeout" | "connectionTimeout"
> & {
  http: { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number };
} {
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionTimeout: IDLE_TIMEOUT_MS,
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(TIMEOUT_CHECK_MS, limits.headersTimeoutMs),
    },
  };
}

/** Past the cap Node closes a new connection at once: no answer, but no cost either. */
export function capConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
}
