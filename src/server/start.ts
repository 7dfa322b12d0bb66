// Wiring one server: store, engine, workflows from the configuration (or the demo), the HTTP
// app, and a clean stop. `yardmaster serve` and the end-to-end tests both start it this way.
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgentExtension } from "../agents/index.ts";
import {
  ConfigError,
  type ConfigProblem,
  defaultPublicUrl,
  displayName,
  POSTGRES_URL,
  redactStoreUrl,
} from "../config/index.ts";
import type { ServerConfig } from "../config/server-config.ts";
import {
  askPerson,
  Engine,
  EngineError,
  type EventRecord,
  type Json,
  type Store,
} from "../engine/index.ts";
import { buildApp } from "../http/app.ts";
import { createAuthGate, isLoopbackHost } from "../http/auth.ts";
import type { LoadedWorkflow } from "../loading/index.ts";
import { type Logger, silentLogger } from "../observability/logger.ts";
import { Telemetry } from "../observability/telemetry.ts";
import { flushSpans } from "../observability/tracing.ts";
import { PluginHost } from "../plugins/index.ts";
import { AgentService } from "../service/agent/agent-service.ts";
import { AgentSessions } from "../service/agent/agent-sessions.ts";
import { checkedAsk } from "../service/node-ask.ts";
import { EngineOperatorService } from "../service/operator-service.ts";
import {
  loadForRegistration,
  Registrar,
  registeredWorkflow,
} from "../service/registration/index.ts";
import { openPostgresStore } from "../stores/postgres/index.ts";
import { openSqliteStore } from "../stores/sqlite/index.ts";
import { namedOperators, prepareOperatorTokens } from "./operator-tokens.ts";

const CLOSE_GRACE_MS = 2000;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const VERSION: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;
const DEMO_FILE = join(ROOT, "examples", "demo.ts");
const DEMO_TARGET = `${DEMO_FILE}:demo`;

export interface RunningServer {
  url: string;
  engine: Engine;
  stop(reason?: string): Promise<void>;
}

/**
 * Opens the store a URL names. `exclusive`: a SQLite file as the one server using it, refusing
 * one another server holds; several servers share a PostgreSQL schema (engine/cluster.ts).
 */
export async function openStore(
  url: string,
  options: { exclusive?: boolean } = {},
): Promise<Store> {
  if (url.startsWith("sqlite:")) return openSqliteStore(url.slice("sqlite:".length), options);
  if (POSTGRES_URL.test(url)) return openPostgresStore(url);
  throw new Error(
    `store ${JSON.stringify(redactStoreUrl(url))} is not supported: use sqlite:<path> or postgres://user:pass@host:5432/db`,
  );
}

/**
 * Waits for the HTTP server to close, but not for ever: a client that keeps a connection open
 * (a stream it stopped reading, a request it never finishes) would hold the stop indefinitely.
 * After the grace period the connections still open are cut.
 */
async function closeBounded(server: Server, closing: Promise<unknown>): Promise<void> {
  const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
  try {
    await closing;
  } finally {
    clearTimeout(cut);
  }
}

/** The configured store; one that cannot be opened is a configuration problem of `server.store`. */
async function openConfiguredStore(config: ServerConfig): Promise<Store> {
  try {
    return await openStore(config.server.store, { exclusive: true });
  } catch (err) {
    const shown = config.file === null ? null : displayName(config.file);
    const store = redactStoreUrl(config.server.store);
    const message = `cannot open ${store}: ${(err as Error).message}`;
    throw new ConfigError(shown, [{ key: "server.store", message }]);
  }
}

/**
 * Where targets may load from: the configured roots, plus the demo's own file when the server
 * runs the demo (it ships with the server; a reload of it must find it again).
 */
function workflowRoots(config: ServerConfig): string[] {
  const roots = config.server.workflowRoots;
  return rowTargets(config).some((row) => row.target === DEMO_TARGET)
    ? [...roots, DEMO_FILE]
    : roots;
}

/** The `[workflows.*]` rows to load; without a configuration file, the demo workflow. */
function rowTargets(config: ServerConfig) {
  const rows = Object.entries(config.workflows).map(([key, row]) => ({
    key,
    target: row.target,
    pool: row.pool,
    recorded: row.writtenTarget,
  }));
  if (rows.length || config.fromFile) return rows;
  const pool = Object.keys(config.pools)[0];
  return [{ key: "demo", target: DEMO_TARGET, pool, recorded: DEMO_TARGET }];
}

async function registerConfigured(
  engine: Engine,
  config: ServerConfig,
  logger: Logger,
  registrar: Registrar,
): Promise<void> {
  const targets = rowTargets(config);
  // The same checks as a registration over HTTP (plugins, reserved names). Every row is tried,
  // so a start that fails names each bad row (file and key) in one ConfigError.
  const problems: ConfigProblem[] = [];
  const rowOf = new Map<string, string>();
  const shown = config.file === null ? null : displayName(config.file);
  for (const { key, target, pool, recorded } of targets) {
    let loaded: LoadedWorkflow;
    try {
      loaded = await loadForRegistration(target, {
        baseDir: config.configDir,
        roots: workflowRoots(config),
      });
    } catch (err) {
      if (config.file === null) throw err;
      problems.push({ key: `workflows.${key}`, message: (err as Error).message });
      continue;
    }
    const name = loaded.workflow.name;
    const earlier = rowOf.get(name);
    if (earlier !== undefined) {
      const message = `defines workflow "${name}", which workflows.${earlier} already registers; keep one row per workflow`;
      problems.push({ key: `workflows.${key}`, message });
      continue;
    }
    rowOf.set(name, key);
    // A workflow registers under its own name (http-api.md, Registration); a table named
    // otherwise still works, but `DELETE ?persist` looks rows up by that name.
    if (name !== key) {
      logger.warn(
        { file: shown, key: `workflows.${key}`, workflow: name },
        `${shown ?? "configuration"}: workflows.${key}: the target defines workflow "${name}", registered ` +
          `as "${name}"; name the table [workflows.${name}] so persisted removal finds it`,
      );
    }
    engine.register(registeredWorkflow(loaded, pool, recorded));
  }
  if (problems.length > 0) throw new ConfigError(shown, problems);
  // Beside servers already running on the store, their registrations stand: this one loads
  // what it lacks from the same targets (docs/deployment.md: the servers share the files).
  const others = engine.store.cluster ? (await engine.store.cluster.servers()).length > 0 : false;
  await engine.commands.syncRegistrations({ keepOthers: others });
  if (others) {
    for (const problem of await registrar.adoptStored()) {
      logger.warn(
        { err: problem },
        `cannot load a workflow the other servers run: ${problem.message}`,
      );
    }
  }
  await syncConfiguredSchedules(engine, config);
}

/** `[schedules.<name>]` rows into the store (source `config`); a bad cron stops the start. */
async function syncConfiguredSchedules(engine: Engine, config: ServerConfig): Promise<void> {
  const rows = Object.entries(config.schedules ?? {}).map(([name, row]) => ({
    ...row,
    name,
    input: (row.input ?? null) as Json,
    enabled: row.enabled ?? undefined,
  }));
  try {
    await engine.commands.syncSchedules(rows);
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
    const file = config.file ?? "configuration";
    throw new Error(`${file}: schedules: ${err.message}`);
  }
}

export interface StartOptions {
  /** The server's logger (observability/logger.ts); absent: nothing is logged. */
  logger?: Logger;
}

export async function startServer(
  config: ServerConfig,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger = options.logger ?? silentLogger();
  const store = await openConfiguredStore(config);
  const telemetry = new Telemetry(logger, VERSION);
  // What each attempt's agent runner declared (ask policy, output model); shared by the runner
  // and the agent surface.
  const sessions = new AgentSessions();
  // Agents are told the configured public URL, else the one the bound port gives (port 0); an
  // attempt recovered before the server listens waits for it.
  let announceUrl: (url: string) => void = () => {};
  const boundUrl = new Promise<string>((resolve) => {
    announceUrl = resolve;
  });
  const agentRunner = createAgentExtension({
    agents: config.agents,
    publicUrl: () => config.server.publicUrl ?? boundUrl,
    sessions,
    version: VERSION,
  });
  // Several servers on the store: a registration made on another one is loaded here too.
  let follow: (event: EventRecord) => void = () => {};
  const engine = new Engine({
    store,
    cluster: {
      leaseMs: config.server.leaseMs,
      url: config.server.publicUrl ?? null,
      onRegistration: (event) => follow(event),
    },
    pools: config.pools,
    defaults: config.defaults,
    extensions: { agent: agentRunner, ask: checkedAsk(askPerson) },
    observer: telemetry,
    onError: (err) => logger.error({ err }, "engine error"),
    idempotencyWindowMs: config.server.idempotencyWindowMs,
    retainMs: config.server.retainMs ?? undefined,
  });
  const registrar = new Registrar({
    engine,
    configFile: config.file,
    configDir: config.configDir,
    roots: workflowRoots(config),
  });
  follow = (event) => {
    void registrar.follow(event).then((problem) => {
      if (problem)
        logger.error({ err: problem }, `cannot follow ${event.name}: ${problem.message}`);
    });
  };
  try {
    await registerConfigured(engine, config, logger, registrar);
  } catch (err) {
    await store.close();
    throw err;
  }
  const service = new EngineOperatorService(engine, VERSION);
  if (config.server.requireToken || !isLoopbackHost(config.server.host)) {
    const created = (tokenFile: string) =>
      logger.info({ token_file: tokenFile }, `Created an operator token in ${tokenFile}`);
    try {
      await prepareOperatorTokens(config, created);
    } catch (err) {
      await store.close();
      throw err;
    }
  }
  const auth = createAuthGate({
    host: config.server.host,
    requireToken: config.server.requireToken,
    tokenFile: config.server.tokenFile,
    token: config.server.token,
    operators: namedOperators(config),
  });
  const app = await buildApp({
    service,
    agent: new AgentService(engine, sessions),
    registrar,
    plugins: new PluginHost(engine, service),
    events: {
      bus: engine.bus,
      replay: (after, limit, runId) => store.listEvents({ after, limit, run_id: runId }),
      lastEventId: () => store.lastEventId(),
    },
    auth,
    bodyLimit: config.server.bodyLimit,
    sseReplayCap: config.server.sseReplayCap,
    maxEventStreams: config.server.maxEventStreams,
    connections: {
      headersTimeoutMs: config.server.headerTimeoutMs,
      requestTimeoutMs: config.server.requestTimeoutMs,
      keepAliveTimeoutMs: config.server.keepAliveTimeoutMs,
      maxConnections: config.server.maxConnections,
    },
    version: VERSION,
    logger,
    metrics: telemetry.metrics,
  });
  telemetry.watch(engine.bus, {
    store,
    registry: engine.registry,
    eventStreams: () => app.eventStreams(),
  });
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      await engine.stop();
      await closeBounded(app.server, app.close());
      await store.close();
      await flushSpans();
    })();
    return stopping;
  };
  await engine.start();
  if (engine.cluster) {
    logger.info(
      { server_id: engine.cluster.id, lease_s: engine.cluster.leaseMs / 1000 },
      `Joined the servers of ${redactStoreUrl(config.server.store)} as ${engine.cluster.id}`,
    );
  }
  try {
    await app.listen({ host: config.server.host, port: config.server.port });
  } catch (err) {
    // Not serving after all (the port is taken...): let go of what was started.
    await stop();
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.server.port;
  const host = config.server.host.includes(":") ? `[${config.server.host}]` : config.server.host;
  const url = `http://${host}:${port}`;
  announceUrl(defaultPublicUrl(config.server.host, port));
  return { url, engine, stop };
}
