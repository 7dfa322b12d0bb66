// `yardmaster token rotate`: write a fresh operator token where the server reads it and print
// it as the last line of stdout, so scripts can take it with `tail -n 1`. The configuration
// is loaded only to find `token_file`, or with `--operator NAME` the `token_file` of
// `[operators.NAME]` (only that operator's token changes).
import { loadConfig } from "../../config/load-config.ts";
import type { ServerConfig } from "../../config/server-config.ts";
import { type CliIo, EXIT_OK } from "../cli-io.ts";
import { envOf } from "../client/client-io.ts";
import { parseArgs, stringOption, UsageError } from "../parse-args.ts";

/** `--operator NAME`: the token file of `[operators.NAME]`, which must be configured. */
function operatorFile(config: ServerConfig, name: string): string {
  const row = config.operators?.[name];
  if (row !== undefined && Object.hasOwn(config.operators ?? {}, name)) return row.tokenFile;
  const known = Object.keys(config.operators ?? {});
  throw new UsageError(
    `no operator ${name} is configured (${known.length > 0 ? `operators: ${known.join(", ")}` : "the configuration has no [operators.<name>] tables"})`,
  );
}

export async function run(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, { config: "string", operator: "string" });
  const [action, ...extra] = parsed.positionals;
  if (action !== "rotate") {
    throw new UsageError(action === undefined ? "missing action" : `unknown action ${action}`);
  }
  if (extra.length > 0) throw new UsageError(`unexpected argument ${extra[0]}`);
  const config = await loadConfig({
    cwd: io.cwd,
    file: stringOption(parsed, "config"),
    // YARDMASTER_CONFIG and YARDMASTER_TOKEN_FILE say where the token file is, as for serve.
    env: envOf(io),
  });
  const operator = stringOption(parsed, "operator");
  const tokenFile =
    operator === undefined ? config.server.tokenFile : operatorFile(config, operator);
  const { rotateToken } = await import("../../http/auth.ts");
  const token = await rotateToken(tokenFile);
  const whose = operator === undefined ? "operator token" : `token of operator ${operator}`;
  io.err(`New ${whose} written to ${tokenFile}; a running server accepts it at once.`);
  io.out(token);
  return EXIT_OK;
}
