// The operator tokens a server in token mode needs before it listens: the single token file
// (as always) and one file per `[operators.<name>]`, each created with a fresh token when
// absent. Two operators holding the same token could not be told apart, so that stops the start
// with a configuration error naming both.
import { createHash } from "node:crypto";
import {
  ConfigError,
  type ConfigProblem,
  displayName,
  type ServerConfig,
} from "../config/index.ts";
import { ensureToken, type NamedOperator } from "../http/auth.ts";

export function namedOperators(config: ServerConfig): NamedOperator[] {
  return Object.entries(config.operators ?? {}).map(([name, row]) => ({
    name,
    tokenFile: row.tokenFile,
  }));
}

/** Creates missing token files; refuses two operators with one token. */
export async function prepareOperatorTokens(
  config: ServerConfig,
  created: (tokenFile: string) => void,
): Promise<void> {
  const holders: Array<{ key: string; token: string }> = [];
  const ensure = async (tokenFile: string) => {
    const result = await ensureToken(tokenFile);
    if (result.created) created(tokenFile);
    return result.token;
  };
  holders.push({
    key: config.server.token === null ? "server.token_file" : "YARDMASTER_TOKEN",
    token: config.server.token ?? (await ensure(config.server.tokenFile)),
  });
  for (const op of namedOperators(config)) {
    holders.push({ key: `operators.${op.name}.token_file`, token: await ensure(op.tokenFile) });
  }
  const seen = new Map<string, string>();
  const problems: ConfigProblem[] = [];
  for (const { key, token } of holders) {
    const digest = createHash("sha256").update(token).digest("hex");
    const first = seen.get(digest);
    if (first === undefined) seen.set(digest, key);
    else {
      problems.push({
        key,
        message: `holds the same token as ${first}; each operator needs its own token (rotate one with \`yardmaster token rotate --operator NAME\`)`,
      });
    }
  }
  if (problems.length > 0) {
    throw new ConfigError(config.file === null ? null : displayName(config.file), problems);
  }
}
