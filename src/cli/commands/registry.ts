// Every command of `yardmaster`, with what help shows. Modules load only when their command
// runs, so `--help` stays fast and `token rotate` never loads the server.
import type { CliIo } from "../cli-io.ts";
import { CLIENT_COMMANDS } from "./client-commands.ts";

export type CommandRun = (args: string[], io: CliIo) => Promise<number>;

export interface CommandEntry {
  name: string;
  usage: string;
  summary: string;
  /** More help text, printed after the summary by `yardmaster COMMAND --help`. */
  details?: string;
  load(): Promise<{ run: CommandRun }>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "serve",
    usage: "serve [--config FILE] [--host H] [--port P] [--store URL]",
    summary: "run the server until SIGINT or SIGTERM",
    details: [
      "Also: --log-level fatal|error|warn|info|debug|trace|silent, --log-format json|pretty|auto,",
      "and --print-config to print the resolved settings (secrets masked) and exit.",
      "Settings may also come from YARDMASTER_HOST, YARDMASTER_PORT, YARDMASTER_STORE,",
      "YARDMASTER_CONFIG, YARDMASTER_LOG_LEVEL, YARDMASTER_LOG_FORMAT; the operator token from",
      "YARDMASTER_TOKEN or YARDMASTER_TOKEN_FILE, a PostgreSQL password from",
      "YARDMASTER_STORE_PASSWORD or YARDMASTER_STORE_PASSWORD_FILE. A flag wins over a",
      "variable, a variable over the file.",
    ].join("\n"),
    load: () => import("./serve.ts"),
  },
  {
    name: "token",
    usage: "token rotate [--config FILE] [--operator NAME]",
    summary: "generate a new operator token and print it",
    load: () => import("./token.ts"),
  },
  ...CLIENT_COMMANDS,
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}
