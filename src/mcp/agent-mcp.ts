// POST /mcp/agent: the agent surface as a stateless streamable-HTTP MCP server. The task is the
// token's: no tool takes a task id. A fresh MCP server instance serves each request, bound to
// the attempt the token resolved to, so nothing leaks between attempts.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { taskTokenCheck, tokenOf } from "../http/routes/agent-routes.ts";
import type { ZodApp } from "../http/routes/route-kit.ts";
import type { AgentService } from "../service/agent/agent-service.ts";
import { buildAgentServer } from "./agent-tools.ts";

/**
 * The server is stateless and offers no server-to-client stream, so GET (and DELETE, which ends
 * a session) answer 405 as the streamable-HTTP transport asks; clients then stay on POST.
 */
function registerNotAllowed(app: ZodApp, agent: AgentService): void {
  app.route({
    method: ["GET", "DELETE"],
    url: "/mcp/agent",
    config: { auth: "task" },
    schema: { hide: true },
    preValidation: taskTokenCheck(agent),
    handler: (_request, reply) =>
      reply
        .code(405)
        .header("allow", "POST")
        .send({
          jsonrpc: "2.0",
          error: { code: -32000, message: "Method not allowed: this server answers POST only." },
          id: null,
        }),
  });
}

/**
 * The request as the transport reads it. Every answer is one JSON response (never a stream), so
 * a client that accepts JSON, or sends no Accept at all, is served rather than refused with 406
 * for not also listing text/event-stream.
 */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers({ accept: "application/json, text/event-stream" });
  for (const name of ["content-type", "mcp-protocol-version"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(new URL(request.url, "http://mcp.local"), {
    method: "POST",
    headers,
    body: JSON.stringify(request.body ?? null),
  });
}

export function registerAgentMcp(app: ZodApp, agent: AgentService, version: string): void {
  registerNotAllowed(app, agent);
  app.post(
    "/mcp/agent",
    {
      config: { auth: "task" },
      preValidation: taskTokenCheck(agent),
      schema: {
        security: [{ taskToken: [] }],
        tags: ["agent"],
        operationId: "agentMcp",
        summary:
          "Streamable-HTTP MCP server: get_task, append_log, submit_result, ask_operator, wait_answer",
        body: z.unknown(),
      },
    },
    async (request, reply) => {
      const token = tokenOf(request)!;
      const server = buildAgentServer(agent, await agent.taskOfToken(token), token, version);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      try {
        const response = await transport.handleRequest(webRequestOf(request), {
          parsedBody: request.body,
        });
        reply.code(response.status);
        reply.headers(Object.fromEntries(response.headers));
        const text = await response.text();
        return reply.send(text === "" ? undefined : text);
      } finally {
        await transport.close();
        await server.close();
      }
    },
  );
}
