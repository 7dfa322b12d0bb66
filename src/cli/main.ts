// `yardmaster` command line: picks the command, turns bad command lines into exit code 2 and
// expected failures (such as a bad configuration) into a message and exit code 1.
import { ConfigError } from "../config/config-error.ts";
import { type CliIo, EXIT_FAILED, EXIT_OK, EXIT_USAGE, processIo } from "./cli-io.ts";
import { COMMANDS, findCommand } from "./commands/registry.ts";
import { UsageError } from "./parse-args.ts";
import { commandHelp, generalHelp, packageVersion } from "./usage.ts";

export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === "--help" || first === "-h" || first === "help") {
    const topic = first === "help" && rest[0] ? findCommand(rest[0]) : undefined;
    const text = topic ? commandHelp(topic) : generalHelp(COMMANDS);
    // Asked-for help is output; help shown because nothing was asked is a usage error.
    if (first === undefined) {
      io.err(text);
      return EXIT_USAGE;
    }
    io.out(text);
    return EXIT_OK;
  }
  if (first === "--version" || first === "-V") {
    io.out(await packageVersion());
    return EXIT_OK;
  }
  const command = findCommand(first);
  if (command === undefined) {
    const what = first.startsWith("-") ? "option" : "command";
    io.err(`yardmaster: unknown ${what} ${first}; see yardmaster --help`);
    return EXIT_USAGE;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.out(commandHelp(command));
    return EXIT_OK;
  }
  try {
    const { run } = await command.load();
    return await run(rest, io);
  } catch (error) {
    return reportFailure(error, command.name, io);
  }
}

function reportFailure(error: unknown, name: string, io: CliIo): number {
  if (error instanceof UsageError) {
    io.err(`yardmaster ${name}: ${error.message}; see yardmaster ${name} --help`);
    return EXIT_USAGE;
  }
  if (error instanceof ConfigError) {
    io.err(`yardmaster ${name}: invalid configuration:\n${error.message}`);
    return EXIT_FAILED;
  }
  io.err(`yardmaster ${name}: ${error instanceof Error ? error.message : String(error)}`);
  return EXIT_FAILED;
}
