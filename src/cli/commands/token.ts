// `yardmaster token rotate`: write a fresh operator token where the server reads it and print
// it as the last line of stdout, so scripts can take it with `tail -n 1`. The configuration
// is loaded only to find `token_file`.
import { loadConfig } from "../../config/load-config.ts";
import { type CliIo, EXIT_OK } from "../cli-io.ts";
import { envOf } from "../client/client-io.ts";
import { parseArgs, stringOption, UsageError } from "../parse-args.ts";

export async function run(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, { config: "string" });
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
  const tokenFile = config.server.tokenFile;
  const { rotateToken } = await import("../../http/auth.ts");
  const token = await rotateToken(tokenFile);
  io.err(`New operator token written to ${tokenFile}; a running server accepts it at once.`);
  io.out(token);
  return EXIT_OK;
}
