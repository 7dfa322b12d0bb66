// `yardmaster serve`: load the configuration (flags, environment, file), start the server with
// its logger, print the ready line and what the operator needs next (banner), and stop cleanly on SIGINT or SIGTERM (see signal-stop.ts).
// `--print-config` prints the resolved settings instead, secrets masked, and exits.
import { configText, SECRET_VARIABLES } from "../../config/index.ts";
import { loadConfig } from "../../config/load-config.ts";
import type { ServerConfig, ServerSettings } from "../../config/server-config.ts";
import { redactStoreUrl } from "../../config/store-url.ts";
import { isLoopbackHost } from "../../http/auth.ts";
import { createLogger, type Logger, resolveFormat } from "../../observability/logger.ts";
import type { CliIo } from "../cli-io.ts";
import { type ClientIo, envOf } from "../client/client-io.ts";
import { parseArgs, portOption, stringOption, UsageError } from "../parse-args.ts";
import { SignalStop, type Stoppable } from "../signal-stop.ts";

interface RunningServer extends Stoppable {
  url: string;
  engine: { registry: { workflows: Map<string, unknown> } };
}

/**
 * After the ready line (always the first, which scripts and tests read): the console and docs,
 * the store (a postgres password masked), the workflows loaded, and whether a token is asked for
 * and where the current one is kept.
 */
export function bannerLines(config: ServerSettings, url: string, workflows: string[]): string[] {
  const base = url.replace(/\/$/, "");
  const token =
    !config.requireToken && isLoopbackHost(config.host)
      ? "not required (loopback bind)"
      : config.token !== null
        ? "required: the one in YARDMASTER_TOKEN"
        : `required: the current one is in ${config.tokenFile}`;
  return [
    `  console    ${base}/`,
    `  docs       ${base}/docs`,
    `  store      ${redactStoreUrl(config.store)}`,
    `  workflows  ${workflows.length ? workflows.join(", ") : "none"}`,
    `  token      ${token}`,
  ];
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, {
    config: "string",
    host: "string",
    port: "string",
    store: "string",
    "log-level": "string",
    "log-format": "string",
    "print-config": "boolean",
  });
  if (parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument ${parsed.positionals[0]}`);
  }
  const env = envOf(io);
  const config = await loadConfig({
    cwd: io.cwd,
    file: stringOption(parsed, "config"),
    env,
    flags: {
      host: stringOption(parsed, "host"),
      port: portOption(parsed, "port"),
      store: stringOption(parsed, "store"),
      logLevel: stringOption(parsed, "log-level"),
      logFormat: stringOption(parsed, "log-format"),
    },
  });
  if (parsed.options["print-config"] === true) {
    io.out(configText(config));
    return 0;
  }
  // Read once, the secrets leave the environment: every child process (an agent above all, a
  // program that runs whatever it is asked to) would otherwise inherit them.
  if (env === process.env) for (const name of SECRET_VARIABLES) delete process.env[name];
  const logger = serverLogger(config, io);
  // Loaded here, not at the top: only `serve` needs the server and its dependencies.
  const { startServer } = await import("../../server/start.ts");
  const signals = new SignalStop(logger);
  let server: RunningServer;
  try {
    server = await startServer(config, { logger });
  } catch (error) {
    signals.dispose();
    throw error;
  }
  // A signal during start-up stops the server as soon as it exists, without a ready line.
  if (signals.received === null) {
    logger.info({ url: server.url }, `Yardmaster listening on ${server.url}`);
    io.out(`Yardmaster listening on ${server.url}`);
    const names = [...server.engine.registry.workflows.keys()].sort();
    for (const line of bannerLines(config.server, server.url, names)) io.out(line);
  }
  return signals.stopOnSignal(server);
}

/**
 * Lines go to stderr (stdout carries only the ready line), readable there on a terminal. A
 * command run in-process by a test with an io of its own gets them through that io.
 */
function serverLogger(config: ServerConfig, io: CliIo): Logger {
  const own = envOf(io) === process.env;
  const terminal = (io as ClientIo).stderrIsTty ?? process.stderr.isTTY === true;
  const noColour = envOf(io).NO_COLOR;
  return createLogger({
    level: config.log.level,
    format: resolveFormat(config.log.format, terminal),
    colours: terminal && (noColour === undefined || noColour === ""),
    destination: own ? undefined : { write: (line: string) => io.err(line.replace(/\n$/, "")) },
  });
}
