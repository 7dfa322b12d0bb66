// The engine types and helpers the attempt API's callers read besides the commands: the
// attempt handle `ctx.agent` receives, the engine core the service passes to the token
// commands, the records the commands answer, and how an attempt's stop is recognized. Kept
// apart so that engine/index.ts re-exports them with `export *`: a name the entry also exports
// explicitly takes precedence there instead of clashing.
export type { EngineCore } from "../core.ts";
export type { Json, RequestRecord, SubmissionRecord, TaskRecord } from "../domain.ts";
export { isInterrupt } from "../interrupt.ts";
export type { AttemptHandle, ContextExtensions } from "../task-context.ts";
