// Settings from the environment, as container images and service managers give them. They sit
// between flags and the file: a flag wins over a variable, a variable over the file. Secrets
// (the operator token, the store password) come only from here, never from a flag, because a
// command line is visible to every user of the machine; each has a `*_FILE` form naming a file
// that holds it (a mounted secret). An empty variable counts as unset.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ConfigProblem, checkGiven } from "./config-error.ts";
import { logSection, serverSection } from "./schema.ts";

export const ENV = {
  config: "YARDMASTER_CONFIG",
  host: "YARDMASTER_HOST",
  port: "YARDMASTER_PORT",
  store: "YARDMASTER_STORE",
  token: "YARDMASTER_TOKEN",
  tokenFile: "YARDMASTER_TOKEN_FILE",
  storePassword: "YARDMASTER_STORE_PASSWORD",
  storePasswordFile: "YARDMASTER_STORE_PASSWORD_FILE",
  logLevel: "YARDMASTER_LOG_LEVEL",
  logFormat: "YARDMASTER_LOG_FORMAT",
} as const;

/** Variables that hold a secret or point at one: `serve` removes them once read. */
export const SECRET_VARIABLES: readonly string[] = [
  ENV.store,
  ENV.token,
  ENV.tokenFile,
  ENV.storePassword,
  ENV.storePasswordFile,
];

export type Environment = Record<string, string | undefined>;

/** A secret and the variable it was read from (what `--print-config` names). */
export interface Secret {
  value: string;
  from: string;
}

export interface EnvSettings {
  /** `YARDMASTER_CONFIG`, as given (relative to the working folder). */
  config?: string;
  host?: string;
  port?: number;
  /** Relative SQLite paths are resolved against the working folder, as a flag's are. */
  store?: string;
  token?: Secret;
  /** Absolute. */
  tokenFile?: string;
  storePassword?: Secret;
  logLevel?: string;
  logFormat?: string;
}

const given = (env: Environment, name: string): string | undefined => {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
};

/** Whether both `name` and `fileName` are set (a problem is noted then): say one thing once. */
function both(env: Environment, name: string, fileName: string, problems: ConfigProblem[]) {
  if (given(env, name) === undefined || given(env, fileName) === undefined) return false;
  problems.push({ key: name, message: `set either ${name} or ${fileName}, not both` });
  return true;
}

/** A secret from `NAME`, or read once from the file `NAME_FILE` names; both is a mistake. */
function secret(
  env: Environment,
  cwd: string,
  name: string,
  fileName: string,
  problems: ConfigProblem[],
): Secret | undefined {
  if (both(env, name, fileName, problems)) return undefined;
  const value = given(env, name);
  const file = given(env, fileName);
  if (value !== undefined) return { value, from: name };
  if (file === undefined) return undefined;
  try {
    // A file written by `echo` ends with a newline that is not part of the secret.
    const text = readFileSync(resolve(cwd, file), "utf8").replace(/\r?\n$/, "");
    if (text !== "") return { value: text, from: fileName };
    problems.push({ key: fileName, message: `${file} is empty` });
  } catch (error) {
    problems.push({ key: fileName, message: `cannot read ${file}: ${(error as Error).message}` });
  }
  return undefined;
}

/** Reads and checks the variables; problems are named by variable, as flags are by flag. */
export function readEnvironment(
  env: Environment,
  cwd: string,
): { settings: EnvSettings; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const port = given(env, ENV.port);
  const plain = {
    host: given(env, ENV.host),
    // Digits only: Number("") is 0 and Number("0x10") is 16, neither of which was meant.
    port: port === undefined ? undefined : /^\d+$/.test(port) ? Number(port) : port,
    store: given(env, ENV.store),
  };
  const log = { level: given(env, ENV.logLevel), format: given(env, ENV.logFormat) };
  const serverName: Record<string, string> = { host: ENV.host, port: ENV.port, store: ENV.store };
  problems.push(
    ...checkGiven(serverSection, plain, (key) => serverName[key] ?? key),
    ...checkGiven(logSection, log, (key) => (key === "level" ? ENV.logLevel : ENV.logFormat)),
  );
  both(env, ENV.token, ENV.tokenFile, problems);
  const token = given(env, ENV.token);
  const tokenFile = given(env, ENV.tokenFile);
  const settings: EnvSettings = {
    config: given(env, ENV.config),
    host: plain.host,
    port: typeof plain.port === "number" ? plain.port : undefined,
    store: plain.store,
    token: token === undefined ? undefined : { value: token, from: ENV.token },
    // The token file itself, read as `token_file` is: re-read when it changes (a rotation
    // reaches the running server), and created when a server that needs it finds none.
    tokenFile: tokenFile === undefined ? undefined : resolve(cwd, tokenFile),
    storePassword: secret(env, cwd, ENV.storePassword, ENV.storePasswordFile, problems),
    logLevel: log.level,
    logFormat: log.format,
  };
  return { settings, problems };
}
