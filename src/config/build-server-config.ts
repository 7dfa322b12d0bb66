// Turns a validated configuration file into the fully resolved ServerConfig: defaults filled
// in, then the file, the environment and flags on top (each winning over the one before),
// relative paths made absolute, workflow pools cross-checked.
import { resolve } from "node:path";
import { ConfigError, type ConfigProblem, keyPath } from "./config-error.ts";
import { ENV, type EnvSettings } from "./environment.ts";
import { defaultPublicUrl, resolveStoreUrl, resolveTarget } from "./resolve-paths.ts";
import { type ConfigFile, DURATION_TEXT } from "./schema.ts";
import type {
  AgentConfig,
  ConfigFlags,
  LogFormat,
  LogLevel,
  LogSettings,
  OperatorConfig,
  PoolConfig,
  ScheduleConfig,
  ServerConfig,
  ServerSettings,
  WorkflowRowConfig,
} from "./server-config.ts";
import { withStorePassword } from "./store-url.ts";

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
  idempotencyWindow: 86_400,
  lease: 15,
  logLevel: "info" as LogLevel,
  logFormat: "auto" as LogFormat,
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
  env: EnvSettings;
}

const FILE_ONLY = [
  "require_token",
  "body_limit",
  "sse_replay_cap",
  "workflow_roots",
  "header_timeout",
  "request_timeout",
  "keep_alive_timeout",
  "max_connections",
  "max_event_streams",
  "idempotency_window",
  "retain",
  "lease",
] as const;

/** Picks a setting by precedence (flag, variable, file, default), noting where it came from. */
class Origins {
  readonly record: Record<string, string> = {};

  pick<T>(
    key: string,
    choices: { flag?: T; env?: T; file?: T; fallback: T },
    names: { flag?: string; env?: string } = {},
  ): T {
    const [value, origin] =
      choices.flag !== undefined
        ? [choices.flag, names.flag ?? "flag"]
        : choices.env !== undefined
          ? [choices.env, names.env ?? "environment"]
          : choices.file !== undefined
            ? [choices.file, "file"]
            : [choices.fallback, "default"];
    this.record[key] = origin;
    return value;
  }
}

export function buildServerConfig(content: ConfigFile, ctx: BuildContext): ServerConfig {
  const pools = content.pools && Object.keys(content.pools).length > 0 ? content.pools : null;
  const origins = new Origins();
  const config: ServerConfig = {
    file: ctx.file,
    fromFile: ctx.file !== null,
    configDir: ctx.configDir,
    server: buildServer(content, ctx, origins),
    log: buildLog(content, ctx, origins),
    origins: origins.record,
    defaults: {
      retries: content.defaults?.retries ?? DEFAULTS.retries,
      priority: content.defaults?.priority ?? DEFAULTS.priority,
      backoff: content.defaults?.backoff ?? null,
    },
    pools: structuredClone(pools ?? DEFAULTS.pools),
    workflows: buildWorkflows(content, ctx.configDir),
    agents: buildAgents(content, ctx.configDir),
    schedules: buildSchedules(content),
    // Only a file with `[operators.*]` tables has the key (absent: the single token only).
    ...(content.operators === undefined ? {} : { operators: buildOperators(content, ctx) }),
  };
  checkTimeouts(config.server, ctx.shown);
  checkWorkflowPools(config, ctx.shown);
  return config;
}

function buildServer(content: ConfigFile, ctx: BuildContext, origins: Origins): ServerSettings {
  const s = content.server ?? {};
  const { flags, env } = ctx;
  const host = origins.pick(
    "server.host",
    { flag: flags.host, env: env.host, file: s.host, fallback: DEFAULTS.host },
    { flag: "--host", env: ENV.host },
  );
  const port = origins.pick(
    "server.port",
    { flag: flags.port, env: env.port, file: s.port, fallback: DEFAULTS.port },
    { flag: "--port", env: ENV.port },
  );
  // A store given as a flag or a variable is relative to where the command was typed.
  const store = origins.pick(
    "server.store",
    {
      flag: flags.store === undefined ? undefined : resolveStoreUrl(flags.store, ctx.cwd),
      env: env.store === undefined ? undefined : resolveStoreUrl(env.store, ctx.cwd),
      file: s.store === undefined ? undefined : resolveStoreUrl(s.store, ctx.configDir),
      fallback: resolveStoreUrl(DEFAULTS.store, ctx.configDir),
    },
    { flag: "--store", env: ENV.store },
  );
  let publicUrl = origins.pick<string | null>("server.public_url", {
    file: s.public_url?.replace(/\/+$/, ""),
    fallback: null,
  });
  if (publicUrl === null && port !== 0) {
    publicUrl = defaultPublicUrl(host, port);
    origins.record["server.public_url"] = "from host and port";
  }
  // The keys only the file sets come from it or from the defaults.
  for (const key of FILE_ONLY) {
    origins.record[`server.${key}`] = s[key] === undefined ? "default" : "file";
  }
  return {
    host,
    port,
    requireToken: s.require_token ?? DEFAULTS.requireToken,
    store: storeWithPassword(store, ctx, origins),
    publicUrl,
    bodyLimit: s.body_limit ?? DEFAULTS.bodyLimit,
    sseReplayCap: s.sse_replay_cap ?? DEFAULTS.sseReplayCap,
    tokenFile: origins.pick(
      "server.token_file",
      {
        env: env.tokenFile,
        file: s.token_file === undefined ? undefined : resolve(ctx.configDir, s.token_file),
        fallback: resolve(ctx.configDir, DEFAULTS.tokenFile),
      },
      { env: ENV.tokenFile },
    ),
    token: env.token?.value ?? null,
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
    idempotencyWindowMs: ms(s.idempotency_window ?? DEFAULTS.idempotencyWindow),
    retainMs: s.retain === undefined ? null : durationMs(s.retain),
    leaseMs: ms(s.lease ?? DEFAULTS.lease),
  };
}

/**
 * The store URL with the password of `YARDMASTER_STORE_PASSWORD(_FILE)` in it. A password
 * written in a `--store` flag wins over the variable (flags win); one written in the file or in
 * `YARDMASTER_STORE` gives way to it.
 */
function storeWithPassword(store: string, ctx: BuildContext, origins: Origins): string {
  const password = ctx.env.storePassword;
  if (password === undefined) return store;
  const merged = withStorePassword(store, password.value, ctx.flags.store !== undefined);
  if (merged === null) {
    throw new ConfigError(null, [
      {
        key: password.from,
        message: "the store is not a PostgreSQL URL (postgres://...), so it takes no password",
      },
    ]);
  }
  if (merged !== store) origins.record["server.store"] += `, password from ${password.from}`;
  return merged;
}

function buildLog(content: ConfigFile, ctx: BuildContext, origins: Origins): LogSettings {
  const file = content.log ?? {};
  // Flags and variables were checked against the same enumerations as the file's keys.
  const pick = <T>(key: "level" | "format", flag?: string, env?: string, fallback?: T) =>
    origins.pick(
      `log.${key}`,
      { flag: flag as T | undefined, env: env as T | undefined, file: file[key] as T, fallback },
      { flag: `--log-${key}`, env: key === "level" ? ENV.logLevel : ENV.logFormat },
    ) as T;
  return {
    level: pick<LogLevel>("level", ctx.flags.logLevel, ctx.env.logLevel, DEFAULTS.logLevel),
    format: pick<LogFormat>("format", ctx.flags.logFormat, ctx.env.logFormat, DEFAULTS.logFormat),
  };
}

const ms = (seconds: number) => Math.max(1, Math.round(seconds * 1000));

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A checked duration text (`"30d"`, schema.ts) in milliseconds. */
function durationMs(text: string): number {
  const [, n, unit] = DURATION_TEXT.exec(text)!;
  return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

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

function buildSchedules(content: ConfigFile): Record<string, ScheduleConfig> {
  const out: Record<string, ScheduleConfig> = {};
  for (const [name, row] of Object.entries(content.schedules ?? {})) {
    out[name] = {
      workflow: row.workflow,
      cron: row.cron,
      timezone: row.timezone ?? "UTC",
      title: row.title,
      input: row.input ?? null,
      enabled: row.enabled ?? null,
      catchup: row.catchup ?? "once",
    };
  }
  return out;
}

/**
 * An operator name: a bare TOML key (letters, digits, `_`, `-`; written without quotes), at most
 * 64 characters. `operator` is the single token's name (`token_file`), so no table takes it.
 */
export const OPERATOR_NAME = /^[A-Za-z0-9_-]{1,64}$/;
export const SINGLE_TOKEN_OPERATOR = "operator";

function buildOperators(content: ConfigFile, ctx: BuildContext): Record<string, OperatorConfig> {
  const out: Record<string, OperatorConfig> = {};
  const problems: ConfigProblem[] = [];
  const files = new Map<string, string>();
  for (const [name, row] of Object.entries(content.operators ?? {})) {
    const key = keyPath(["operators", name]);
    if (!OPERATOR_NAME.test(name)) {
      problems.push({
        key,
        message: "expected an operator name of letters, digits, _ and - (at most 64 characters)",
      });
      continue;
    }
    if (name === SINGLE_TOKEN_OPERATOR) {
      problems.push({
        key,
        message: `"${SINGLE_TOKEN_OPERATOR}" is the name of the single token ([server] token_file); choose another name`,
      });
      continue;
    }
    const tokenFile = resolve(ctx.configDir, row.token_file);
    const other = files.get(tokenFile);
    if (other !== undefined) {
      problems.push({
        key: `${key}.token_file`,
        message: `the same file as operators.${other}.token_file; each operator needs its own token`,
      });
      continue;
    }
    files.set(tokenFile, name);
    out[name] = { tokenFile };
  }
  if (problems.length > 0) throw new ConfigError(ctx.shown, problems);
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
