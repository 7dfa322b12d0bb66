// Loading workflow code into the server: a target string checked against the workflow roots,
// imported through tsx, its workflow finalized and its plugin declarations validated, and the
// source scan that places nodes in their file. Kept out of authoring/ because it pulls in tsx,
// the TypeScript compiler (in a child process) and the plugin compiler, none of which the
// engine or a workflow file's copy of the package entry may reach.
export {
  type LoadedWorkflow,
  type LoadStage,
  loadTarget,
  readSource,
  WorkflowLoadError,
} from "./loader.ts";
export { validatePlugins } from "./plugins.ts";
export type { TargetPlace } from "./target-roots.ts";
