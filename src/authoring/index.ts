// The authoring API as the rest of the server uses it: workflows, edge refs, routing, the
// errors a node may throw and how failures are classified, JSON conversion, the graph types.
// Pure on purpose: nothing here loads code (that is loading/), so the engine can import it
// without pulling in tsx, the TypeScript compiler or the plugin host. Workflow authors import
// from the package entry (src/index.ts) instead.
export {
  GraphError,
  isGraphError,
  isNodeTimeout,
  isNonRetryable,
  NodeTimeout,
  NonRetryable,
} from "./errors.ts";
export { classifyFailure, describeError, errorStack } from "./failure.ts";
export { toJson } from "./json.ts";
export type { LoadedWorkflow } from "./loaded-workflow.ts";
export { edgeRefs, isEdgeRef, isTransition, makeEdgeRef } from "./refs.ts";
export { type RoutedTransition, type Routing, route } from "./routing.ts";
export type * from "./types.ts";
export { isWorkflow, Workflow, workflow } from "./workflow.ts";
