// Workflow plugins: actions, panels and assets declared with `wf.action(...)` / `wf.panel(...)`.
export { type AssetBytes, versionOf } from "./assets.ts";
export { BUILTIN } from "./builtin.ts";
export { assertPlugins, type CompileContext, compilePlugins } from "./compile.ts";
export { panelSource } from "./compile-panel.ts";
export { manifestEntry, pluginOf, workflowPlugin } from "./manifest.ts";
export { PluginHost, type PluginService } from "./plugin-host.ts";
export type { ScopeIds } from "./scope.ts";
export type * from "./types.ts";
