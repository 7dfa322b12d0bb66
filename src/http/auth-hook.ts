// Applies the operator credential before a body is even read. A route declares its policy in
// `config.auth`; routes under /api/ default to "operator" so a route added without thought is
// closed, everything else (documentation, assets) defaults to open.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { ServiceError } from "../service/errors.ts";
import { type AuthGate, identifyBy, isLoopbackHost } from "./auth.ts";

/**
 * none: open; operator: bearer header; operator-or-query: also `access_token` (SSE only);
 * task: no operator token, the route checks the task token (`X-Service-Token`) itself.
 */
export type AuthPolicy = "none" | "operator" | "operator-or-query" | "task";

declare module "fastify" {
  interface FastifyContextConfig {
    auth?: AuthPolicy;
  }
  interface FastifyRequest {
    /**
     * The operator the request's token belongs to (`operator` for the single token, else the
     * name of its `[operators.<name>]` table); undefined when auth is off or the route is open.
     */
    operator?: string;
  }
}

/** Who made an operator request: its operator's name, or null (auth off). */
export function operatorOf(request: FastifyRequest): string | null {
  return request.operator ?? null;
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}

function policyOf(request: FastifyRequest): AuthPolicy {
  const declared = request.routeOptions.config?.auth;
  if (declared) return declared;
  return (request.routeOptions.url ?? "").startsWith("/api/") ? "operator" : "none";
}

function queryToken(request: FastifyRequest): string | undefined {
  const value = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof value === "string" ? value : undefined;
}

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A browser on another site can send a simple cross-origin POST to a loopback server that needs
 * no token. Browsers always name the Origin of such a request, so refuse one that is not ours.
 */
function crossSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!UNSAFE.has(request.method) || typeof origin !== "string") return false;
  // Behind a proxy that rewrites Host, the browser-facing host arrives as X-Forwarded-Host.
  const forwarded = request.headers["x-forwarded-host"];
  const ours = [
    request.headers.host,
    ...(typeof forwarded === "string" ? forwarded.split(",") : []),
  ];
  try {
    const host = new URL(origin).host;
    return !ours.some((h) => h?.trim() === host);
  } catch {
    return true;
  }
}

/**
 * Without a token, a page whose DNS name was rebound to 127.0.0.1 would pass as same-origin.
 * A server that needs no token therefore answers only to loopback host names; behind a proxy
 * the spec asks for require_token anyway.
 */
function foreignHost(request: FastifyRequest): boolean {
  const host = request.headers.host;
  return typeof host === "string" && !isLoopbackHost(host.replace(/:\d+$/, ""));
}

export function installAuth(app: FastifyInstance, gate: AuthGate): void {
  app.addHook("onRequest", async (request) => {
    if (crossSite(request)) {
      throw new ServiceError("forbidden", "Cross-site requests are refused.");
    }
    if (gate.mode === "off" && foreignHost(request)) {
      throw new ServiceError(
        "forbidden",
        "Without a token this server answers only to a loopback host name; set require_token.",
      );
    }
    const policy = policyOf(request);
    if (policy === "none" || policy === "task" || gate.mode === "off") return;
    const header = bearerToken(request);
    const token = header ?? (policy === "operator-or-query" ? queryToken(request) : undefined);
    const operator = identifyBy(gate, token);
    if (operator === null) {
      throw new ServiceError(
        "unauthorized",
        token === undefined ? "An operator token is required." : "The operator token is not valid.",
      );
    }
    request.operator = operator;
  });
}
