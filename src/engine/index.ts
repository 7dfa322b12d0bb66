// The engine's public entry: what modules outside src/engine/ import of it.

// Attempt API (agents)
export {
  type AgentQuestion,
  awaitAgentAnswer,
  openAgentQuestion,
} from "./commands/agent-ask.ts";
export { appendAgentLog } from "./commands/agent-log.ts";
export type { PermissionFields } from "./commands/agent-permission.ts";
export type { SessionEnd } from "./commands/agent-session.ts";
export {
  type RepairReason,
  rejectAgentSubmission,
  submitAgentResult,
} from "./commands/agent-submit.ts";
export type { TranscriptChunk } from "./commands/agent-transcript.ts";
export { AttemptCommands, type AttemptWatcher } from "./commands/attempt.ts";
export * from "./commands/attempt-shared.ts";
export { attemptOfToken, issueTaskToken } from "./commands/attempt-token.ts";
