// The engine's one public entry: what the rest of the server (service, stores, HTTP, plugins,
// observability, wiring) may use of it. Everything else under src/engine/ is the engine's own.
//
// - The engine and its commands: `Engine` (lifecycle, `register`, `commands`), the command input
//   types, and `EngineError`, the refusal every command throws (the service maps its codes).
// - What a store implements: the Store interface and the domain records it persists.
// - The attempt API the agent side uses (agents/, service/agent/): the live attempt's commands
//   and the commands an agent's task token may run.
// - What readers of the engine's state use: the event bus, the observer interface, the registry
//   types, the run outputs the views show, the in-flight query of the registrar.
//
// Importing this loads the whole engine; a module that needs only types imports them with
// `import type`, which loads nothing.

export { askPerson } from "./ask.ts";
export { type Clock, ManualClock, systemClock } from "./clock.ts";
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
export type {
  AnswerAuthor,
  AnswerInput,
  BindEvent,
  BulkAction,
  BulkRefusal,
  BulkResult,
  BulkTarget,
  Commands,
  EditInput,
  IdempotencyInput,
  Operator,
  OperatorStatus,
  PositionInput,
  PublishScope,
  ScheduleInput,
  SchedulePatch,
  SubmitInput,
  SubmitOnceResult,
} from "./commands/index.ts";
export {
  type ArrivalRecord,
  type BranchFrame,
  type EnqueueReason,
  type EventRecord,
  type IdempotencyRecord,
  type Json,
  type Lineage,
  type LogAuthor,
  type LogKind,
  type LogRecord,
  NEW_TASK_STATE,
  type NewEvent,
  type NewTask,
  type RegistrationRecord,
  type RequestMode,
  type RequestOption,
  type RequestRecord,
  RUN_STATUSES,
  type RunRecord,
  type RunStatus,
  type ScheduleCatchup,
  type ScheduleFireRecord,
  type ScheduleRecord,
  type StreamChunkRecord,
  type SubmissionRecord,
  TASK_STATUSES,
  type TaskRecord,
  type TaskStatus,
  TERMINAL_RUN_STATUSES,
} from "./domain.ts";
export { DEFAULT_IDEMPOTENCY_WINDOW_MS, Engine, type EngineOptions } from "./engine.ts";
export { type DomainErrorCode, EngineError } from "./errors.ts";
export { EventBus, type EventListener } from "./event-bus.ts";
export { isRemote } from "./event-sequencer.ts";
// The event vocabulary: every core event's name and data schema (the service's OpenAPI
// description and the console's types derive from it).
export {
  AgentStatsData,
  type CoreEventName,
  EPHEMERAL_EVENT_NAMES,
  type EphemeralEventName,
  EVENT_NAMES,
  EVENTS,
  type EventData,
  type EventName,
  PLUGIN_EVENT_PATTERN,
  type PluginEventData,
  type PluginEventName,
  type StoredEventName,
} from "./events.ts";
export { inFlightTasks } from "./in-flight.ts";
export type {
  AttemptFacts,
  AttemptOutcome,
  AttemptWatch,
  EngineObserver,
} from "./observer.ts";
export {
  freeSlots,
  type NodeDefaults,
  type Pool,
  type RegisteredWorkflow,
  type Registry,
} from "./registry.ts";
export { checkCron, nextDue } from "./schedule-times.ts";
export { runOutput, terminalTasks } from "./settle.ts";
export {
  type ArrivalTally,
  type ClaimScope,
  type ClusterNotice,
  type EventQuery,
  LIVE_TASK_STATUSES,
  type LiveTaskStatus,
  OPEN_RUN_STATUSES,
  type OpenRunStatus,
  type RequestFilter,
  type RunCount,
  type RunFilter,
  type RunSelection,
  type RunSort,
  type ServerRecord,
  type Store,
  type StoreCluster,
  type StoreProbe,
  type StoreReader,
  type StoreWriter,
  type TaskFilter,
  type TaskGuard,
  type TaskUpdate,
} from "./store.ts";
export type { ContextExtensions } from "./task-context.ts";
