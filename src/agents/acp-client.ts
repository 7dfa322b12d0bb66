// The client side of ACP over the agent's stdio (newline-delimited JSON-RPC), and the request
// bodies the runner sends. The unstable entrypoint is used because turn `usage` (tokens) is
// only there; nothing unstable is required from the agent.
import { Readable, Writable } from "node:stream";
import {
  type ClientConnection,
  client,
  type InitializeRequest,
  type McpServer,
  methods,
  type NewSessionRequest,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionNotification,
} from "@agentclientprotocol/sdk/unstable";
import type { AgentProcess } from "./agent-process.ts";

export interface ClientCallbacks {
  update(notification: SessionNotification): void;
  permission(request: RequestPermissionRequest): Promise<RequestPermissionResponse>;
}

export function connectAgent(proc: AgentProcess, callbacks: ClientCallbacks): ClientConnection {
  const app = client({ name: "yardmaster" })
    .onNotification(methods.client.session.update, ({ params }) => callbacks.update(params))
    .onRequest(methods.client.session.requestPermission, ({ params }) =>
      callbacks.permission(params),
    );
  const output = Writable.toWeb(proc.child.stdin) as WritableStream<Uint8Array>;
  const input = Readable.toWeb(proc.child.stdout) as unknown as ReadableStream<Uint8Array>;
  return app.connect(ndJsonStream(output, input));
}

/** No file system or terminal is offered: the agent works in its own cwd with its own tools. */
export function initializeRequest(version: string): InitializeRequest {
  return {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    clientInfo: { name: "yardmaster", version },
  };
}

/**
 * The session carries the task's MCP server unless the agent said it has no MCP over HTTP; the
 * environment variables reach the agent either way.
 */
export function newSessionRequest(
  cwd: string,
  mcp: { url: string; token: string } | null,
): NewSessionRequest {
  const servers: McpServer[] = mcp
    ? [
        {
          type: "http",
          name: "yardmaster",
          url: mcp.url,
          headers: [{ name: "X-Service-Token", value: mcp.token }],
        },
      ]
    : [];
  return { cwd, mcpServers: servers };
}
