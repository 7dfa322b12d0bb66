// `yardmaster serve --print-config`: the settings a server would run with, as TOML, each server
// and log setting followed by where it came from, so a surprise in precedence (a variable left
// set in a container, a flag in a unit file) shows at a glance. Secrets never appear: the store
// password and the operator token are masked, and so is every value of an agent's `env`, which
// is where API keys go.
import { stringify } from "smol-toml";
import type { ServerConfig } from "./server-config.ts";
import { redactStoreUrl } from "./store-url.ts";

const MASK = "***";

const value = (v: unknown) => (typeof v === "string" ? JSON.stringify(v) : String(v));

export function configText(config: ServerConfig): string {
  const { server, log, origins } = config;
  const line = (table: string, key: string, v: unknown) =>
    `${key} = ${value(v)}  # ${origins[`${table}.${key}`] ?? "default"}`;
  const lines = [
    "# The settings `yardmaster serve` resolved (flags, then environment, then file, then",
    "# defaults), each with where it came from. Secrets are masked.",
    `# configuration file: ${config.file ?? "none (built-in defaults)"}`,
    "",
    "[server]",
    line("server", "host", server.host),
    line("server", "port", server.port),
    line("server", "store", redactStoreUrl(server.store)),
    line("server", "require_token", server.requireToken),
    server.publicUrl === null
      ? "# public_url: none; taken from the port the server binds"
      : line("server", "public_url", server.publicUrl),
    line("server", "body_limit", server.bodyLimit),
    line("server", "sse_replay_cap", server.sseReplayCap),
    line("server", "token_file", server.tokenFile),
    `workflow_roots = ${JSON.stringify(server.workflowRoots)}  # ${origins["server.workflow_roots"]}`,
    line("server", "header_timeout", server.headerTimeoutMs / 1000),
    line("server", "request_timeout", server.requestTimeoutMs / 1000),
    line("server", "keep_alive_timeout", server.keepAliveTimeoutMs / 1000),
    line("server", "max_connections", server.maxConnections),
    line("server", "max_event_streams", server.maxEventStreams),
    line("server", "idempotency_window", server.idempotencyWindowMs / 1000),
    line("server", "lease", server.leaseMs / 1000),
    server.retainMs === null
      ? "# retain: none; ended runs are kept for ever"
      : line("server", "retain", durationText(server.retainMs)),
    ...(server.token === null
      ? []
      : [`# operator token: ${MASK} from YARDMASTER_TOKEN (token_file is not read)`]),
    "",
    "[log]",
    line("log", "level", log.level),
    line("log", "format", log.format),
    "",
  ];
  const agents = Object.fromEntries(
    Object.entries(config.agents).map(([name, agent]) => [
      name,
      {
        command: agent.command,
        args: agent.args,
        cwd: agent.cwd,
        ...(agent.timeout === null ? {} : { timeout: agent.timeout }),
        env: Object.fromEntries(Object.keys(agent.env).map((k) => [k, MASK])),
      },
    ]),
  );
  const workflows = Object.fromEntries(
    Object.entries(config.workflows).map(([name, row]) => [
      name,
      { target: row.target, pool: row.pool },
    ]),
  );
  // Where each operator's token is, never the token.
  const operators = Object.fromEntries(
    Object.entries(config.operators ?? {}).map(([name, row]) => [
      name,
      { token_file: row.tokenFile },
    ]),
  );
  const tables = { defaults: config.defaults, pools: config.pools, workflows, agents, operators };
  // An empty table would print as a bare header.
  const rest = Object.fromEntries(
    Object.entries(tables).filter(([, rows]) => Object.keys(rows).length > 0),
  );
  return `${lines.join("\n")}\n${stringify(rest)}`.trimEnd();
}

/** A retention in the largest unit that divides it (`2592000000` -> `"30d"`). */
function durationText(ms: number): string {
  const units: Array<[string, number]> = [
    ["d", 86_400_000],
    ["h", 3_600_000],
    ["m", 60_000],
  ];
  for (const [unit, size] of units) if (ms % size === 0) return `${ms / size}${unit}`;
  return `${ms / 1000}s`;
}
