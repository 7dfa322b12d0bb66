// The configuration the server runs with, after defaults, file and command-line flags are
// merged and every relative path is made absolute. Nothing here is optional where the spec
// or this project gives a default, so consumers never re-apply defaults of their own.

export interface ServerSettings {
  host: string;
  port: number;
  requireToken: boolean;
  /** `sqlite:/absolute/path.db`, `sqlite::memory:`, or a postgres URL left as written. */
  store: string;
  /**
   * What agents are told to call. Without a `public_url` setting it is built from host and
   * port; it is null only when the port is 0 (chosen by the OS at listen time), and then the
   * server derives it from the bound port with `defaultPublicUrl`.
   */
  publicUrl: string | null;
  bodyLimit: number;
  sseReplayCap: number;
  /** Absolute path of the operator token file (`yardmaster token rotate` writes it). */
  tokenFile: string;
  /**
   * The operator token given in the environment (`YARDMASTER_TOKEN`); null when the token
   * lives in `tokenFile`. A server given one never reads or creates the file.
   */
  token: string | null;
  /** Absolute folders a workflow target must resolve into (`workflow_roots`). */
  workflowRoots: string[];
  /** Longest wait for a request's headers, then for the whole request (body included). */
  headerTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long an idle connection is kept open for the client's next request. */
  keepAliveTimeoutMs: number;
  /** Most connections open at once; one more is closed as soon as it is accepted. */
  maxConnections: number;
  /** Most `GET /api/events` streams open at once; one more is refused with 429. */
  maxEventStreams: number;
  /** How long a submit's `Idempotency-Key` answers the run it created. */
  idempotencyWindowMs: number;
  /** Ended runs older than this (ms since they ended) are deleted; null: kept for ever. */
  retainMs: number | null;
  /**
   * Where several servers share a PostgreSQL store: how long a server's lease lasts without a
   * heartbeat before the others take its attempts back.
   */
  leaseMs: number;
}

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
/** `auto`: readable lines when the log goes to a terminal, JSON lines otherwise. */
export type LogFormat = "auto" | "json" | "pretty";

export interface LogSettings {
  level: LogLevel;
  format: LogFormat;
}

export interface NodeDefaults {
  retries: number;
  priority: number;
  /** `[defaults] backoff`: the retry backoff of nodes that set none; null: retry at once. */
  backoff: { initial: number; factor?: number; max?: number; jitter?: boolean } | null;
}

export interface PoolConfig {
  capacity: number;
}

export interface WorkflowRowConfig {
  /** Target with its file part made absolute; module targets are left as written. */
  target: string;
  /** The target exactly as the file has it (what a persisted row keeps writing). */
  writtenTarget: string;
  pool: string;
}

/** A `[schedules.<name>]` row: synced into the store at start (source `config`). */
export interface ScheduleConfig {
  workflow: string;
  cron: string;
  /** IANA time zone; UTC unless set. */
  timezone: string;
  title: string;
  /** The runs' input; null when the row sets none. */
  input: unknown;
  /** Unset: the store's flag (an operator's enable/disable survives restarts), else true. */
  enabled: boolean | null;
  catchup: "once" | "skip";
}

export interface AgentConfig {
  /** The program, then its arguments. */
  command: string[];
  /** Extra arguments appended after `command`. */
  args: string[];
  env: Record<string, string>;
  /** Absolute working folder; the configuration folder unless set. */
  cwd: string;
  /** Seconds; null means no cap of the agent's own. */
  timeout: number | null;
}

/** A `[operators.<name>]` row: a named operator of the operator API. */
export interface OperatorConfig {
  /** Absolute path of the operator's token file (created with a fresh token at start). */
  tokenFile: string;
}

export interface ServerConfig {
  /** Absolute path of the configuration file, or null when running on built-in defaults. */
  file: string | null;
  fromFile: boolean;
  /** Folder relative paths were resolved against: the file's folder, or the working folder. */
  configDir: string;
  server: ServerSettings;
  log: LogSettings;
  /**
   * Where each `server.*` and `log.*` setting came from, by key (`server.port`): a flag
   * (`--port`), a variable (`YARDMASTER_PORT`), the file (`file`) or `default`.
   */
  origins: Record<string, string>;
  defaults: NodeDefaults;
  pools: Record<string, PoolConfig>;
  workflows: Record<string, WorkflowRowConfig>;
  agents: Record<string, AgentConfig>;
  schedules?: Record<string, ScheduleConfig>;
  /** `[operators.<name>]`, by name; absent or empty: only the single token (`operator`). */
  operators?: Record<string, OperatorConfig>;
}

export interface ConfigFlags {
  host?: string;
  port?: number;
  store?: string;
  logLevel?: string;
  logFormat?: string;
}
