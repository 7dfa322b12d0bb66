// `yardmaster serve`: load the configuration, start the server, print one ready line, and
// stop cleanly on SIGINT or SIGTERM (see signal-stop.ts).
import { loadConfig } from "../../config/load-config.ts";
import type { CliIo } from "../cli-io.ts";
import { parseArgs, portOption, stringOption, UsageError } from "../parse-args.ts";
import { SignalStop, type Stoppable } from "../signal-stop.ts";

interface RunningServer extends Stoppable {
  url: string;
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
  const signals = new SignalStop(io);
  let server: RunningServer;
  try {
    server = await startServer(config, { log: (line: string) => io.err(line) });
  } catch (error) {
    signals.dispose();
    throw error;
  }
  // A signal during start-up stops the server as soon as it exists, without a ready line.
  if (signals.received === null) io.out(`Yardmaster listening on ${server.url}`);
  return signals.stopOnSignal(server);
}
