// Everything the engine and the service use from the authoring side, in one place.
// Workflow authors import from the package entry (src/index.ts) instead.
export {
  GraphError,
  isGraphError,
  isNodeTimeout,
  isNonRetryable,
  NodeTimeout,
  NonRetryable,
} from "./errors.ts";
export { classifyFailure, describeError } from "./failure.ts";
export { toJson } from "./json.ts";
export {
  type LoadedWorkflow,
  type LoadStage,
  loadTarget,
  readSource,
  WorkflowLoadError,
} from "./loader.ts";
export { validatePlugins } from "./plugins.ts";
export { edgeRefs, isEdgeRef, isTransition, makeEdgeRef } from "./refs.ts";
export { type RoutedTransition, type Routing, route } from "./routing.ts";
export type { TargetPlace } from "./target-roots.ts";
export type * from "./types.ts";
export { isWorkflow, Workflow, workflow } from "./workflow.ts";
