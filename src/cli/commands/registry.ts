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
    load: () => import("./serve.ts"),
  },
  {
    name: "token",
    usage: "token rotate [--config FILE]",
    summary: "generate a new operator token and print it",
    load: () => import("./token.ts"),
  },
  ...CLIENT_COMMANDS,
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}
