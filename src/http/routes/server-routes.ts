// GET /api/health, GET /api/health/ready and GET /api/me: open to everyone, no credential
// needed (a load balancer's probe carries none).

import type { OperatorService } from "../../service/api.ts";
import { ApiError, HealthOut, MeOut, ReadyOut } from "../../service/schemas/index.ts";
import { type AuthGate, identifyBy } from "../auth.ts";
import { bearerToken } from "../auth-hook.ts";
import type { ZodApp } from "./route-kit.ts";

export function registerServerRoutes(
  app: ZodApp,
  deps: { service: OperatorService; auth: AuthGate; version: string },
): void {
  app.get(
    "/api/health",
    {
      config: { auth: "none" },
      schema: {
        tags: ["server"],
        operationId: "health",
        summary: "Liveness and load",
        response: { 200: HealthOut },
      },
    },
    () => deps.service.health(),
  );
  app.get(
    "/api/health/ready",
    {
      config: { auth: "none" },
      schema: {
        tags: ["server"],
        operationId: "ready",
        summary: "Readiness for a load balancer",
        description:
          "200 when the server can take work: its store answers, at the schema version this " +
          "build expects, and it is not stopping. Otherwise 503 `conflict`, with `reason` " +
          "`store`, `schema` or `stopping`. `/api/health` answers as long as the process does.",
        response: { 200: ReadyOut, 503: ApiError },
      },
    },
    () => deps.service.ready(),
  );
  app.get(
    "/api/me",
    {
      config: { auth: "none" },
      schema: {
        tags: ["server"],
        operationId: "me",
        summary: "How this server authenticates, and whether the caller is authenticated",
        response: { 200: MeOut },
      },
    },
    async (request): Promise<MeOut> => {
      const operator = identifyBy(deps.auth, bearerToken(request));
      return {
        auth: deps.auth.mode,
        authenticated: deps.auth.check(bearerToken(request)),
        ...(deps.auth.mode === "token" && operator !== null ? { operator } : {}),
        version: deps.version,
        started_at: deps.service.startedAt.toISOString(),
        features: [],
      };
    },
  );
}
