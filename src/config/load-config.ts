// Loads the server configuration: built-in defaults, then `yardmaster.toml` (or `--config`, or
// YARDMASTER_CONFIG), then the environment (environment.ts), then the flags. Relative paths in
// the file resolve against the file's folder; relative paths given as flags or variables
// resolve against the working folder, as any shell user expects.
import { readFile } from "node:fs/promises";
import { dirname, isAbsolute, relative, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import { buildServerConfig } from "./build-server-config.ts";
import { ConfigError, type ConfigProblem, checkGiven, problemsFromIssues } from "./config-error.ts";
import { type Environment, readEnvironment } from "./environment.ts";
import { type ConfigFile, configFileSchema, logSection, serverSection } from "./schema.ts";
import type { ConfigFlags, ServerConfig } from "./server-config.ts";

export const DEFAULT_CONFIG_FILE = "yardmaster.toml";

export interface LoadConfigOptions {
  /**
   * `--config` value; relative to `cwd`. When absent, YARDMASTER_CONFIG, else `yardmaster.toml`
   * in `cwd` if present.
   */
  file?: string;
  cwd: string;
  flags?: ConfigFlags;
  /** The variables to read (environment.ts); none when absent, so a library caller opts in. */
  env?: Environment;
}

export async function loadConfig(options: LoadConfigOptions): Promise<ServerConfig> {
  const { cwd, flags = {} } = options;
  const { settings: env, problems } = readEnvironment(options.env ?? {}, cwd);
  checkFlags(flags, problems);
  const named = options.file ?? env.config;
  const file = resolve(cwd, named ?? DEFAULT_CONFIG_FILE);
  const shown = displayName(file, cwd);
  const text = await readConfigText(file, shown, named !== undefined);
  if (text === null) {
    return buildServerConfig({}, { file: null, shown: null, configDir: cwd, cwd, flags, env });
  }
  const parsed = parseToml(text, shown);
  const result = configFileSchema.safeParse(parsed);
  if (!result.success)
    throw new ConfigError(shown, problemsFromIssues(result.error.issues, parsed));
  const content: ConfigFile = result.data;
  return buildServerConfig(content, { file, shown, configDir: dirname(file), cwd, flags, env });
}

/** How a file is named in messages: relative to the working folder when inside it. */
export function displayName(file: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, file);
  return rel && !rel.startsWith("..") && !isAbsolute(rel) ? rel : file;
}

/** The file's text, or null when the default file is simply absent. */
async function readConfigText(file: string, shown: string, explicit: boolean) {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !explicit) return null;
    const why = code === "ENOENT" ? "file not found" : `cannot read: ${(error as Error).message}`;
    throw new ConfigError(shown, [{ key: "", message: why }]);
  }
}

function parseToml(text: string, shown: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    // smol-toml's message is a summary line followed by a code excerpt; keep both, but lead
    // with the line and column so the first line alone is enough.
    const [summary, ...excerpt] = error.message.split("\n");
    const what = summary.replace(/^Invalid TOML document:\s*/, "");
    const detail = excerpt.join("\n").trimEnd();
    const message = `line ${error.line}, column ${error.column}: invalid TOML: ${what}`;
    throw new ConfigError(shown, [
      { key: "", message: detail ? `${message}\n${detail}` : message },
    ]);
  }
}

/**
 * Flags go through the same field rules as the file, reported under the flag's name, together
 * with the environment's problems (`earlier`): one failed start names every one of them.
 */
function checkFlags(flags: ConfigFlags, earlier: ConfigProblem[]): void {
  const server = { host: flags.host, port: flags.port, store: flags.store };
  const log = { level: flags.logLevel, format: flags.logFormat };
  const problems = [
    ...earlier,
    ...checkGiven(serverSection, server, (key) => `--${key}`),
    ...checkGiven(logSection, log, (key) => `--log-${key}`),
  ];
  if (problems.length > 0) throw new ConfigError(null, problems);
}
