// POST /mcp/agent: the agent surface as a stateless streamable-HTTP MCP server. The task is the
// token's: no tool takes a task id. A fresh MCP server instance serves each request, bound to
// the attempt the token resolved to, so nothing leaks between attempts.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import type { ZodApp } from "../http/routes/route-kit.ts";
import type { AgentService } from "../service/agent/agent-service.ts";
import { ServiceError } from "../service/errors.ts";

type ToolResult = { content: Array<{ type: "text"; text: string }>; isError?: boolean };

async function asTool(work: () => Promise<unknown>): Promise<ToolResult> {
  try {
    const value = await work();
    return { content: [{ type: "text", text: JSON.stringify(value) }] };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return { content: [{ type: "text", text: JSON.stringify(err.toBody()) }], isError: true };
  }
}

function buildServer(agent: AgentService, taskId: number, token: string, version: string) {
  const server = new McpServer({ name: "yardmaster", version });
  server.registerTool(
    "get_task",
    {
      description:
        "The attempt you work on: input, run title and description, work log, output_schema.",
    },
    () => asTool(() => agent.getTask(taskId, token)),
  );
  server.registerTool(
    "append_log",
    {
      description: "Append an entry to the run's work log.",
      inputSchema: { text: z.string().min(1) },
    },
    ({ text }) => asTool(() => agent.appendLog(taskId, token, text)),
  );
  server.registerTool(
    "submit_result",
    {
      description:
        "Submit the attempt's result. When get_task shows an output_schema, `result` must fit it. Submitting again replaces the earlier result.",
      inputSchema: { result: z.any() },
    },
    ({ result }) => asTool(() => agent.submit(taskId, token, result ?? null)),
  );
  if (agent.askPolicy(taskId) !== "http") return server;
  server.registerTool(
    "ask_operator",
    {
      description:
        "Ask a person. Give options for a choice, a JSON Schema for a form, or neither for free text.",
      inputSchema: {
        prompt: z.string().min(1),
        options: z
          .array(
            z.union([z.string(), z.object({ option_id: z.string(), name: z.string().optional() })]),
          )
          .optional(),
        schema: z.record(z.string(), z.unknown()).optional(),
      },
    },
    (args) => asTool(() => agent.ask(taskId, token, args)),
  );
  server.registerTool(
    "wait_answer",
    {
      description: "Wait up to `wait` seconds (0..120) for the answer to a request you opened.",
      inputSchema: { request_id: z.number().int(), wait: z.number().optional() },
    },
    ({ request_id, wait }) => asTool(() => agent.poll(taskId, token, request_id, wait ?? 30)),
  );
  return server;
}

export function registerAgentMcp(app: ZodApp, agent: AgentService, version: string): void {
  app.post(
    "/mcp/agent",
    {
      config: { auth: "task" },
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
      const header = request.headers["x-service-token"];
      const token = typeof header === "string" ? header : undefined;
      const taskId = await agent.taskOfToken(token);
      const server = buildServer(agent, taskId, token!, version);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      reply.hijack();
      reply.raw.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    },
  );
}
