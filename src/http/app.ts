// The HTTP adapter: fastify with zod schemas for validation, serialization and /openapi.json.
// Routes parse, call one OperatorService method and render; every refusal is rendered once in
// ./errors.ts. Nothing here computes domain things.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { serializerCompiler } from "fastify-type-provider-zod";
import { registerAgentMcp } from "../mcp/agent-mcp.ts";
import type { PluginService } from "../plugins/plugin-host.ts";
import type { AgentService } from "../service/agent/agent-service.ts";
import type { OperatorService } from "../service/api.ts";
import type { WorkflowRegistrar } from "../service/registration/api.ts";
import type { AuthGate } from "./auth.ts";
import { installAuth } from "./auth-hook.ts";
import { installBodyParsers } from "./body-parsers.ts";
import { handleClientError } from "./client-errors.ts";
import {
  type ConnectionLimits,
  capConnections,
  connectionOptions,
  DEFAULT_CONNECTION_LIMITS,
} from "./connection-limits.ts";
import { registerDocs } from "./docs.ts";
import { installErrorHandling, sendError } from "./errors.ts";
import { installHtmlHeaders } from "./html-headers.ts";
import { logUnfinished, RequestLines } from "./logging.ts";
import { registerAgentRoutes } from "./routes/agent-routes.ts";
import { type MetricsEndpoint, registerMetricsRoute } from "./routes/metrics-route.ts";
import { registerPluginRoutes } from "./routes/plugin-routes.ts";
import { registerRegistrationRoutes } from "./routes/registration-routes.ts";
import { registerRequestRoutes } from "./routes/request-routes.ts";
import { documentCommonRefusals, type ZodApp } from "./routes/route-kit.ts";
import { registerRunHistoryRoutes } from "./routes/run-history-routes.ts";
import { registerRunRoutes } from "./routes/run-routes.ts";
import { registerScheduleRoutes } from "./routes/schedule-routes.ts";
import { registerServerRoutes } from "./routes/server-routes.ts";
import { registerTaskRoutes } from "./routes/task-routes.ts";
import { registerWorkflowRoutes } from "./routes/workflow-routes.ts";
import type { EventFeed } from "./sse/event-feed.ts";
import { registerEventStream } from "./sse/events-route.ts";
import { DEFAULT_SSE_LIMITS, type SseLimits } from "./sse/sse-connection.ts";
import { installTracing } from "./tracing.ts";
import { zodValidatorCompiler } from "./validation.ts";

export interface AppDeps {
  service: OperatorService;
  /** The agent surface (task-token routes and the MCP server); absent: not mounted. */
  agent?: AgentService;
  /** Hot registration; absent: the registration routes answer 503 registration_unavailable. */
  registrar?: WorkflowRegistrar;
  /** Plugin actions, panel data and assets; absent: an empty manifest and 404s. */
  plugins?: PluginService;
  events: EventFeed;
  auth: AuthGate;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Most stored events a stream replays before it answers `resync` instead. */
  sseReplayCap: number;
  /** Most event streams open at once (default 1000); one more is refused with 429. */
  maxEventStreams?: number;
  /** Timeouts and the connection cap (defaults: DEFAULT_CONNECTION_LIMITS). */
  connections?: Partial<ConnectionLimits>;
  version: string;
  /** The server's logger (a pino instance); absent: nothing is logged. */
  logger?: FastifyBaseLogger;
  /** GET /metrics; absent: not mounted. */
  metrics?: MetricsEndpoint;
  /** Heartbeat interval and slow-reader bound of the event stream (tests shorten them). */
  sse?: Partial<SseLimits>;
}

declare module "fastify" {
  interface FastifyInstance {
    /** How many event streams (GET /api/events) are open now. */
    eventStreams(): number;
  }
}

export const DEFAULT_MAX_EVENT_STREAMS = 1000;
/** Node's default limit on a whole request head (16 KiB): no segment can be longer. */
const MAX_PATH_PARAM_LENGTH = 16 * 1024;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const connections = { ...DEFAULT_CONNECTION_LIMITS, ...deps.connections };
  const app: ZodApp = Fastify({
    ...connectionOptions(connections),
    bodyLimit: deps.bodyLimit,
    // A path id of any length that fits a request head is judged by its schema or looked up
    // (422, 404); the router's default of 100 characters answered 414 before either saw it.
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    loggerInstance: deps.logger,
    logController: new RequestLines(),
    // Errors raised before routing (a malformed URL) get the same envelope as the rest.
    frameworkErrors: (error, request, reply) => sendError(error, request, reply),
    // ...and so do the ones Node's parser raises before fastify has a request (client-errors.ts).
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();
  capConnections(app.server, connections);
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installTracing(app, deps.version);
  logUnfinished(app);
  installHtmlHeaders(app);
  installBodyParsers(app);
  installErrorHandling(app);
  installAuth(app, deps.auth);
  documentCommonRefusals(app);
  await registerDocs(app, deps.version);
  registerServerRoutes(app, deps);
  registerWorkflowRoutes(app, deps.service);
  registerScheduleRoutes(app, deps.service);
  registerRegistrationRoutes(app, deps);
  registerPluginRoutes(app, deps.plugins);
  registerRunRoutes(app, deps.service);
  registerRunHistoryRoutes(app, deps.service);
  registerTaskRoutes(app, deps.service);
  registerRequestRoutes(app, deps.service);
  if (deps.agent) {
    registerAgentRoutes(app, deps.agent);
    registerAgentMcp(app, deps.agent, deps.version);
  }
  if (deps.metrics) registerMetricsRoute(app, deps.metrics);
  const eventStreams = registerEventStream(app, {
    feed: deps.events,
    replayCap: deps.sseReplayCap,
    limits: { ...DEFAULT_SSE_LIMITS, ...deps.sse },
    maxStreams: deps.maxEventStreams ?? DEFAULT_MAX_EVENT_STREAMS,
  });
  app.decorate("eventStreams", eventStreams);
  await (await import("./ui.ts")).registerUi(app);
  return app;
}
