// Hot registration of workflows: the registrar the HTTP layer calls, and the start-up helpers
// (the registrations table itself is brought in line by the engine: commands.syncRegistrations).
export type { Registered, WorkflowRegistrar } from "./api.ts";
export { loadFailed, loadForRegistration } from "./load.ts";
export { persistPath } from "./persist.ts";
export { Registrar, type RegistrarOptions, registeredWorkflow } from "./registrar.ts";
export { RESERVED_VERBS, reservedNameProblem } from "./reserved.ts";
