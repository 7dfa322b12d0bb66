// The package entry: what a workflow file gets from `import ... from "yardmaster"`.
// Kept to the authoring core on purpose: tsx gives every loaded workflow file its own copy of
// this module graph, so nothing heavy (the loader, the TypeScript compiler) may be reachable here.
export {
  GraphError,
  isGraphError,
  isNonRetryable,
  NodeTimeout,
  NonRetryable,
} from "./authoring/errors.ts";
export type {
  ActionDeclaration,
  PanelDeclaration,
  PluginContext,
  PluginScope,
} from "./authoring/plugin-declarations.ts";
export { isEdgeRef, isTransition } from "./authoring/refs.ts";
export type {
  Arrival,
  EdgeRef,
  FinalGraph,
  FinalNode,
  NodeBody,
  NodeOptions,
  TaskContext,
  Transition,
} from "./authoring/types.ts";
export { isWorkflow, Workflow, workflow } from "./authoring/workflow.ts";
