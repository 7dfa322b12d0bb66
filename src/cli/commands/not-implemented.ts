// Placeholder for the HTTP client commands, which arrive with their own issue.
import { type CliIo, EXIT_USAGE } from "../cli-io.ts";

export async function run(_args: string[], io: CliIo): Promise<number> {
  io.err("yardmaster: this command is not implemented yet");
  return EXIT_USAGE;
}
