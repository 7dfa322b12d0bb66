// GET /api/health and GET /api/me: open to everyone, no credential needed.

import type { OperatorService } from "../../service/api.ts";
import { HealthOut, MeOut } from "../../service/schemas/index.ts";
import type { AuthGate } from "../auth.ts";
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
    async (request): Promise<MeOut> => ({
      auth: deps.auth.mode,
      authenticated: deps.auth.check(bearerToken(request)),
      version: deps.version,
      started_at: deps.service.startedAt.toISOString(),
      features: [],
    }),
  );
}
