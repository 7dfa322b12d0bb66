// The MCP tools of the agent surface, bound to one attempt: the task is the token's, so no tool
// takes a task id. Each tool is a thin layer over AgentService, like the HTTP routes.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { AgentService } from "../service/agent/agent-service.ts";
import { ServiceError } from "../service/errors.ts";
import { Ask, LogText } from "../service/schemas/index.ts";

type ToolResult = {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** MCP's own result shape: the JSON as text for any model, and as structured content. */
function toolResult(value: Record<string, unknown>, isError?: boolean): ToolResult {
  const result: ToolResult = {
    content: [{ type: "text", text: JSON.stringify(value) }],
    structuredContent: value,
  };
  if (isError) result.isError = true;
  return result;
}

/**
 * A refusal (a submission that misfits the output model, an ask without policy http) is a tool
 * result with `isError`, carrying the same body as HTTP (`errors`, `schema`), so the agent reads
 * it and repairs; a JSON-RPC error would tell the model nothing.
 */
async function asTool(work: () => Promise<Record<string, unknown>>): Promise<ToolResult> {
  try {
    return toolResult(await work());
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    return toolResult(err.toBody(), true);
  }
}

export function buildAgentServer(
  agent: AgentService,
  taskId: number,
  token: string,
  version: string,
) {
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
      inputSchema: LogText.shape,
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
      // The HTTP ask's own body schema, bounds included.
      inputSchema: Ask.shape,
    },
    (args) => asTool(() => agent.ask(taskId, token, args)),
  );
  server.registerTool(
    "wait_answer",
    {
      description:
        "Wait up to `wait` seconds (0..120, default 30) for the answer to a request you opened; call again while `answered` is false.",
      inputSchema: { request_id: z.number().int(), wait: z.number().optional() },
    },
    ({ request_id, wait }) => asTool(() => agent.poll(taskId, token, request_id, wait ?? 30)),
  );
  return server;
}
