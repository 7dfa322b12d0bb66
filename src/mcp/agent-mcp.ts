// POST /mcp/agent: the agent surface as a stateless streamable-HTTP MCP server. The task is the
// token's: no tool takes a task id. A fresh MCP server instance serves each request, bound to
// the attempt the token resolved to, so nothing leaks between attempts.
//
// The route reads its body like every other route (the same parsers, size and depth limits),
// and a request the transport refuses is answered in the API's own refusal shape, with the
// status the rest of the API gives the same fault: a body that is not a JSON-RPC message is a
// 422 `validation`, not the transport's 400. What MCP itself fixes stays as MCP has it: GET and
// DELETE answer 405 (no server stream, no session to end), and a JSON-RPC request's answer, an
// error included, is MCP's own JSON-RPC.
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { taskTokenCheck, tokenOf } from "../http/routes/agent-routes.ts";
import type { ZodApp } from "../http/routes/route-kit.ts";
import { excerpt } from "../lib/excerpt.ts";
import type { AgentService } from "../service/agent/agent-service.ts";
import { ServiceError } from "../service/errors.ts";
import { buildAgentServer } from "./agent-tools.ts";

/** A JSON-RPC 2.0 message, or a batch of them; the transport checks the rest of its shape. */
const JsonRpcMessage = z.looseObject({ jsonrpc: z.literal("2.0") });
const McpBody = z.union([JsonRpcMessage, z.array(JsonRpcMessage).min(1)]);

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
    handler: async (_request, reply) => {
      reply.header("allow", "POST");
      throw new ServiceError(
        "not_found",
        "This MCP server answers POST only: it offers no server stream and no session.",
        {},
        { status: 405 },
      );
    },
  });
}

/**
 * The transport's refusal (a JSON-RPC error under a 4xx status) as the API's: what it refuses
 * is the message or the protocol-version header, both input that misfits, so 422 `validation`.
 */
async function transportRefusal(response: Response): Promise<ServiceError> {
  const text = await response.text();
  let message = text;
  try {
    message = String(JSON.parse(text)?.error?.message ?? text);
  } catch {}
  const loc = /protocol version/i.test(message) ? ["header", "mcp-protocol-version"] : ["body"];
  return new ServiceError("validation", "The MCP server cannot take this request.", {
    errors: [{ loc, msg: excerpt(message), type: "jsonrpc_invalid" }],
  });
}

/**
 * The request as the transport reads it. Every answer is one JSON response (never a stream), so
 * a client that accepts JSON, or sends no Accept at all, is served rather than refused with 406
 * for not also listing text/event-stream.
 */
function webRequestOf(request: FastifyRequest): Request {
  // The body was read as JSON already (as every route reads it, a missing Content-Type
  // included), so the transport is told so.
  const headers = new Headers({
    accept: "application/json, text/event-stream",
    "content-type": "application/json",
  });
  const version = request.headers["mcp-protocol-version"];
  if (typeof version === "string") headers.set("mcp-protocol-version", version);
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
        body: McpBody,
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
        if (response.status >= 400) throw await transportRefusal(response);
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
