// Turns a validated configuration file into the fully resolved ServerConfig: defaults filled
// in, flags applied on top, relative paths made absolute, workflow pools cross-checked.
import { resolve } from "node:path";
import { ConfigError, type ConfigProblem, keyPath } from "./config-error.ts";
import { defaultPublicUrl, resolveStoreUrl, resolveTarget } from "./resolve-paths.ts";
import type { ConfigFile } from "./schema.ts";
import type {
  AgentConfig,
  ConfigFlags,
  PoolConfig,
  ServerConfig,
  ServerSettings,
  WorkflowRowConfig,
} from "./server-config.ts";

export const DEFAULTS = {
  host: "127.0.0.1",
  port: 8420,
  requireToken: false,
  store: "sqlite:.yardmaster/store.db",
  bodyLimit: 1_048_576,
  sseReplayCap: 10_000,
  tokenFile: ".yardmaster/operator-token",
  headerTimeout: 20,
  requestTimeout: 60,
  keepAliveTimeout: 5,
  maxConnections: 2000,
  maxEventStreams: 1000,
  retries: 0,
  priority: 0,
  pools: { default: { capacity: 4 } } as Record<string, PoolConfig>,
  pool: "default",
} as const;

export interface BuildContext {
  /** Absolute file path, or null without a file. */
  file: string | null;
  /** The file as named in messages. */
  shown: string | null;
  configDir: string;
  cwd: string;
  flags: ConfigFlags;
}

export function buildServerConfig(content: ConfigFile, ctx: BuildContext): ServerConfig {
  const pools = content.pools && Object.keys(content.pools).length > 0 ? content.pools : null;
  const config: ServerConfig = {
    file: ctx.file,
    fromFile: ctx.file !== null,
    configDir: ctx.configDir,
    server: buildServer(content, ctx),
    defaults: {
      retries: content.defaults?.retries ?? DEFAULTS.retries,
      priority: content.defaults?.priority ?? DEFAULTS.priority,
    },
    pools: structuredClone(pools ?? DEFAULTS.pools),
    workflows: buildWorkflows(content, ctx.configDir),
    agents: buildAgents(content, ctx.configDir),
  };
  checkTimeouts(config.server, ctx.shown);
  checkWorkflowPools(config, ctx.shown);
  return config;
}

function buildServer(content: ConfigFile, ctx: BuildContext): ServerSettings {
  const s = content.server ?? {};
  const host = ctx.flags.host ?? s.host ?? DEFAULTS.host;
  const port = ctx.flags.port ?? s.port ?? DEFAULTS.port;
  // A store given as a flag is relative to where the command was typed.
  const store =
    ctx.flags.store !== undefined
      ? resolveStoreUrl(ctx.flags.store, ctx.cwd)
      : resolveStoreUrl(s.store ?? DEFAULTS.store, ctx.configDir);
  let publicUrl: string | null = s.public_url?.replace(/\/+$/, "") ?? null;
  if (publicUrl === null && port !== 0) publicUrl = defaultPublicUrl(host, port);
  return {
    host,
    port,
    requireToken: s.require_token ?? DEFAULTS.requireToken,
    store,
    publicUrl,
    bodyLimit: s.body_limit ?? DEFAULTS.bodyLimit,
    sseReplayCap: s.sse_replay_cap ?? DEFAULTS.sseReplayCap,
    tokenFile: resolve(ctx.configDir, s.token_file ?? DEFAULTS.tokenFile),
    workflowRoots: workflowRoots(s.workflow_roots, ctx),
    // Unset, the header timeout follows a request timeout set below its default.
    headerTimeoutMs: ms(
      s.header_timeout ??
        Math.min(DEFAULTS.headerTimeout, s.request_timeout ?? DEFAULTS.requestTimeout),
    ),
    requestTimeoutMs: ms(s.request_timeout ?? DEFAULTS.requestTimeout),
    keepAliveTimeoutMs: ms(s.keep_alive_timeout ?? DEFAULTS.keepAliveTimeout),
    maxConnections: s.max_connections ?? DEFAULTS.maxConnections,
    maxEventStreams: s.max_event_streams ?? DEFAULTS.maxEventStreams,
  };
}

const ms = (seconds: number) => Math.max(1, Math.round(seconds * 1000));

/**
 * Folders workflow targets may load from: as configured (relative to the file's folder), else
 * the configuration folder and the working folder, where an operator's own files live.
 */
function workflowRoots(configured: string[] | undefined, ctx: BuildContext): string[] {
  const roots = configured?.map((root) => resolve(ctx.configDir, root)) ?? [ctx.configDir, ctx.cwd];
  return [...new Set(roots)];
}

/** Node refuses a header timeout longer than the request timeout: the headers are part of it. */
function checkTimeouts(server: ServerSettings, shown: string | null): void {
  if (server.headerTimeoutMs <= server.requestTimeoutMs) return;
  throw new ConfigError(shown, [
    {
      key: "server.header_timeout",
      message: `expected at most request_timeout (${server.requestTimeoutMs / 1000} seconds)`,
    },
  ]);
}

function buildWorkflows(content: ConfigFile, dir: string): Record<string, WorkflowRowConfig> {
  const out: Record<string, WorkflowRowConfig> = {};
  for (const [name, row] of Object.entries(content.workflows ?? {})) {
    out[name] = {
      target: resolveTarget(row.target, dir),
      writtenTarget: row.target,
      pool: row.pool ?? DEFAULTS.pool,
    };
  }
  return out;
}

function buildAgents(content: ConfigFile, dir: string): Record<string, AgentConfig> {
  const out: Record<string, AgentConfig> = {};
  for (const [name, row] of Object.entries(content.agents ?? {})) {
    out[name] = {
      command: [...row.command],
      args: [...(row.args ?? [])],
      env: { ...(row.env ?? {}) },
      cwd: resolve(dir, row.cwd ?? "."),
      timeout: row.timeout ?? null,
    };
  }
  return out;
}

/** Registration never creates a pool (http-api.md "Registration"), so neither does a row. */
function checkWorkflowPools(config: ServerConfig, shown: string | null): void {
  const known = Object.keys(config.pools);
  const problems: ConfigProblem[] = [];
  for (const [name, row] of Object.entries(config.workflows)) {
    if (Object.hasOwn(config.pools, row.pool)) continue;
    problems.push({
      key: keyPath(["workflows", name, "pool"]),
      message: `workflow "${name}" names pool "${row.pool}", which is not configured (pools: ${known.join(", ")})`,
    });
  }
  if (problems.length > 0) throw new ConfigError(shown, problems);
}
