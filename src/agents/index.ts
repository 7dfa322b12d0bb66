// The agent runner behind `ctx.agent(...)`.

export {
  type AgentExtension,
  type AgentExtensionOptions,
  createAgentExtension,
} from "./agent-extension.ts";
export { AgentFailure, type AgentReason } from "./agent-failure.ts";
export { type AgentCallSpec, outputSchemaOf, parseAgentOptions } from "./agent-options.ts";
export type { AgentStats } from "./agent-stats.ts";
