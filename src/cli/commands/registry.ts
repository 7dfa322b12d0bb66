// Every command of `yardmaster`, with what help shows. Modules load only when their command
// runs, so `--help` stays fast and `token rotate` never loads the server.
import type { CliIo } from "../cli-io.ts";

export type CommandRun = (args: string[], io: CliIo) => Promise<number>;

export interface CommandEntry {
  name: string;
  usage: string;
  summary: string;
  load(): Promise<{ run: CommandRun }>;
}

/** Client commands planned for the HTTP client issue; listed so help shows what is coming. */
const notYet = async () => import("./not-implemented.ts");

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
  { name: "runs", usage: "runs", summary: "list runs (not implemented yet)", load: notYet },
  {
    name: "submit",
    usage: "submit WORKFLOW --title T",
    summary: "start a run (not implemented yet)",
    load: notYet,
  },
  {
    name: "tail",
    usage: "tail [--run ID]",
    summary: "follow events (not implemented yet)",
    load: notYet,
  },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((command) => command.name === name);
}
