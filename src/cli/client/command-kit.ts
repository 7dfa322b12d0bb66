// What every client command shares: the connection flags (--url, --token), --json, positional
// checks, and turning API refusals and unreachable servers into one stderr line and an exit code.
import { type CliIo, EXIT_OK } from "../cli-io.ts";
import { createStyle, type Style } from "../format/style.ts";
import { type OptionKind, type ParsedArgs, parseArgs, UsageError } from "../parse-args.ts";
import type { ApiClient } from "./api-client.ts";
import { reportClientError } from "./client-errors.ts";
import { colourWanted } from "./client-io.ts";
import { clientFor } from "./connection.ts";

export const CONNECTION_OPTIONS: Record<string, OptionKind> = {
  url: "string",
  token: "string",
  json: "boolean",
};

export interface ClientContext {
  name: string;
  io: CliIo;
  client: ApiClient;
  parsed: ParsedArgs;
  /** The positional arguments, as many as the usage names. */
  args: string[];
  json: boolean;
  style: Style;
}

export interface ClientCommand {
  /** Names of the required positional arguments, e.g. ["RUN", "NODE"]. */
  positionals?: string[];
  /** Any number of positional arguments after the required ones (e.g. `RUN...`). */
  variadic?: boolean;
  options?: Record<string, OptionKind>;
  run(ctx: ClientContext): Promise<number | undefined>;
}

export function clientCommand(name: string, command: ClientCommand) {
  return async (argv: string[], io: CliIo): Promise<number> => {
    const parsed = parseArgs(argv, { ...CONNECTION_OPTIONS, ...command.options });
    const args = checkPositionals(
      parsed.positionals,
      command.positionals ?? [],
      command.variadic === true,
    );
    const client = clientFor(parsed, io);
    const json = parsed.options.json === true;
    const style = createStyle(!json && colourWanted(io));
    try {
      return (await command.run({ name, io, client, parsed, args, json, style })) ?? EXIT_OK;
    } catch (error) {
      return reportClientError(error, name, (line) => io.err(line));
    }
  };
}

function checkPositionals(given: string[], wanted: string[], variadic: boolean): string[] {
  if (given.length < wanted.length) throw new UsageError(`missing ${wanted[given.length]}`);
  if (!variadic && given.length > wanted.length)
    throw new UsageError(`unexpected argument ${given[wanted.length]}`);
  return given;
}

/** The API's JSON as scripts read it: pretty-printed, one document. */
export function printJson(io: CliIo, value: unknown): void {
  io.out(JSON.stringify(value, null, 2));
}

/** A task or request id: a positive integer, or a usage error naming the argument. */
export function idArgument(value: string, what: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1) {
    throw new UsageError(`${what} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
