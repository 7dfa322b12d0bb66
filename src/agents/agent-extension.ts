// The `agent` member of the engine's ContextExtensions: `ctx.agent(...)` runs a configured ACP
// agent on the attempt (typescript.md section 3) and resolves with its accepted submission.
import { describeError, NonRetryable } from "../authoring/index.ts";
import type { AgentConfig } from "../config/server-config.ts";
import { AttemptCommands, type AttemptHandle, type ContextExtensions } from "../engine/index.ts";
import type { AgentSessions } from "../service/agent/agent-sessions.ts";
import { AgentCall } from "./agent-call.ts";
import { type AgentCallSpec, parseAgentOptions } from "./agent-options.ts";

export interface AgentExtensionOptions {
  /** `[agents.<name>]` of the server configuration. */
  agents: Record<string, AgentConfig>;
  /** Where agents reach this server; read at each call, since the port may be chosen late. */
  publicUrl: () => string | Promise<string>;
  /** Shared with the agent surface (HTTP routes, MCP), which reads the ask policy and schema. */
  sessions: AgentSessions;
  /** Reported to agents as the client's version. */
  version?: string;
}

export type AgentExtension = NonNullable<ContextExtensions["agent"]>;

export function createAgentExtension(options: AgentExtensionOptions): AgentExtension {
  const deps = {
    publicUrl: async () => (await options.publicUrl()).replace(/\/+$/, ""),
    sessions: options.sessions,
    version: options.version ?? "0.0.0",
  };
  return async (handle: AttemptHandle, opts: Record<string, unknown>, call: number) => {
    const spec = parseAgentOptions(opts, options.agents);
    const attempt = new AttemptCommands(handle);
    // A call this attempt already finished (its body runs again after a restart) resolves with
    // the submission it resolved with then, as an answered ask does: the agent is not run
    // twice, and what the body did with that result (a person approving it) still holds.
    const done = (await attempt.submissions()).find((s) => s.agent_call === call);
    if (done) return done.payload;
    openAgentSession(options.sessions, attempt.task.id, spec);
    return new AgentCall(attempt, spec, deps, call).run();
  };
}

/**
 * Declares the call's ask policy and output model to the agent surface. One session per attempt:
 * it has one task token, so a second concurrent agent would revoke the first's.
 */
function openAgentSession(sessions: AgentSessions, taskId: number, spec: AgentCallSpec): void {
  if (sessions.get(taskId)) {
    throw new NonRetryable("ctx.agent: an attempt runs one agent at a time; await the first");
  }
  try {
    sessions.open(taskId, spec.ask, spec.outputSchema);
  } catch (err) {
    throw new NonRetryable(`ctx.agent: output is not a valid JSON Schema: ${describeError(err)}`);
  }
}
