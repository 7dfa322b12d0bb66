// GET /metrics: the Prometheus text exposition. Operator-only when the server wants a token, like
// every other operator endpoint (a scraper sends `Authorization: Bearer <token>`).
import { z } from "zod";
import { ApiError } from "../../service/schemas/index.ts";
import type { ZodApp } from "./route-kit.ts";

export interface MetricsEndpoint {
  readonly contentType: string;
  /** The current metrics in the text exposition format. */
  scrape(): Promise<string>;
}

export function registerMetricsRoute(app: ZodApp, metrics: MetricsEndpoint): void {
  app.get(
    "/metrics",
    {
      config: { auth: "operator" },
      schema: {
        tags: ["server"],
        operationId: "metrics",
        summary: "Metrics in the Prometheus text format",
        security: [{ bearer: [] }],
        response: {
          200: {
            description: "Runs, attempts, pools, requests, event streams, store and process.",
            content: { "text/plain": { schema: z.string() } },
          },
          401: ApiError,
        },
      },
    },
    async (_request, reply) => {
      const text = await metrics.scrape();
      // The text goes out as it is, not through the route's JSON serializer.
      return reply.type(metrics.contentType).serializer(String).send(text);
    },
  );
}
