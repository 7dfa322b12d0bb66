// A workflow as the loader hands it over: the object, its finalized graph and where it came
// from. A plain record, declared here rather than beside the loader (loading/) because the
// engine's registry keeps it, and the engine imports authoring only, never the loader.
import type { FinalGraph } from "./types.ts";
import type { Workflow } from "./workflow.ts";

export interface LoadedWorkflow {
  workflow: Workflow;
  graph: FinalGraph;
  /** Absolute path of the module the workflow came from; null when it is not a file. */
  file: string | null;
  exportName: string;
}
