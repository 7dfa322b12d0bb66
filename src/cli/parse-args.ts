// A small parser for `--name value`, `--name=value` and `--flag`; the command line is small
// enough that a dependency would cost more than these lines.

export type OptionKind = "string" | "boolean";

export interface ParsedArgs {
  options: Record<string, string | true>;
  positionals: string[];
}

/** A command line that cannot be understood; the CLI prints it and exits with 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function parseArgs(argv: readonly string[], spec: Record<string, OptionKind>): ParsedArgs {
  const options: Record<string, string | true> = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "-h") {
      options.help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg}`);
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const kind = name === "help" ? "boolean" : Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown option --${name}`);
    if (kind === "boolean") {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      options[name] = true;
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`option --${name} needs a value`);
    options[name] = value;
  }
  return { options, positionals };
}

/** A string option's value, or undefined when absent. */
export function stringOption(parsed: ParsedArgs, name: string): string | undefined {
  const value = parsed.options[name];
  return typeof value === "string" ? value : undefined;
}

/** An option given as JSON (`'{"n": 1}'`, `42`, `'"text"'`); not JSON is a usage error. */
export function jsonOption(parsed: ParsedArgs, name: string): unknown {
  const raw = stringOption(parsed, name);
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw);
  } catch {
    throw new UsageError(`--${name} is not valid JSON: ${raw}`);
  }
}

export function portOption(parsed: ParsedArgs, name: string): number | undefined {
  const value = stringOption(parsed, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`option --${name} expects a port number`);
  return Number(value);
}
