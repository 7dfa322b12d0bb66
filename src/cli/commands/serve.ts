// `yardmaster serve`: load the configuration, start the server, print one ready line, and
// stop cleanly on SIGINT or SIGTERM. A second signal while stopping forces the exit.
import { loadConfig } from "../../config/load-config.ts";
import { type CliIo, EXIT_FAILED, EXIT_OK } from "../cli-io.ts";
import { parseArgs, portOption, stringOption, UsageError } from "../parse-args.ts";

interface RunningServer {
  url: string;
  stop(reason?: string): Promise<void>;
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, {
    config: "string",
    host: "string",
    port: "string",
    store: "string",
  });
  if (parsed.positionals.length > 0) {
    throw new UsageError(`unexpected argument ${parsed.positionals[0]}`);
  }
  const config = await loadConfig({
    cwd: io.cwd,
    file: stringOption(parsed, "config"),
    flags: {
      host: stringOption(parsed, "host"),
      port: portOption(parsed, "port"),
      store: stringOption(parsed, "store"),
    },
  });
  // Loaded here, not at the top: only `serve` needs the server and its dependencies.
  const { startServer } = await import("../../server/start.ts");
  const server: RunningServer = await startServer(config, { log: (line: string) => io.err(line) });
  io.out(`Yardmaster listening on ${server.url}`);
  return untilSignalled(server, io);
}

function untilSignalled(server: RunningServer, io: CliIo): Promise<number> {
  return new Promise((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.err(`${signal} again: exiting without waiting`);
        process.exit(EXIT_FAILED);
      }
      stopping = true;
      io.err(`${signal} received: stopping`);
      server.stop(signal).then(
        () => finish(EXIT_OK),
        (error: unknown) => {
          io.err(`yardmaster serve: stop failed: ${(error as Error)?.message ?? error}`);
          finish(EXIT_FAILED);
        },
      );
    };
    const finish = (code: number) => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      resolve(code);
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}
