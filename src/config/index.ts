// The configuration module's public surface: loading the TOML file and writing workflow rows.
export { ConfigError, type ConfigProblem } from "./config-error.ts";
export { ENV, type Environment, SECRET_VARIABLES } from "./environment.ts";
export {
  DEFAULT_CONFIG_FILE,
  displayName,
  type LoadConfigOptions,
  loadConfig,
} from "./load-config.ts";
export { configText } from "./print-config.ts";
export { defaultPublicUrl, resolveTarget } from "./resolve-paths.ts";
export type {
  AgentConfig,
  ConfigFlags,
  LogFormat,
  LogLevel,
  LogSettings,
  NodeDefaults,
  OperatorConfig,
  PoolConfig,
  ScheduleConfig,
  ServerConfig,
  ServerSettings,
  WorkflowRowConfig,
} from "./server-config.ts";
export { POSTGRES_URL, redactStoreUrl } from "./store-url.ts";
export {
  ConfigWriteError,
  persistWorkflowRow,
  removeWorkflowRow,
  type WorkflowRow,
} from "./workflow-rows.ts";
