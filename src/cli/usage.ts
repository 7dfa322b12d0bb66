// Help and version text for `yardmaster --help` and `yardmaster --version`.
import { readFile } from "node:fs/promises";
import type { CommandEntry } from "./commands/registry.ts";

const MAX_USAGE_WIDTH = 34;

export function generalHelp(commands: readonly CommandEntry[]): string {
  // A usage too long for the column puts its summary on the next line, so help fits 80 columns.
  const width = Math.min(MAX_USAGE_WIDTH, Math.max(...commands.map((c) => c.usage.length)));
  const lines = commands.map((c) =>
    c.usage.length > width
      ? `  yardmaster ${c.usage}\n  ${" ".repeat(width + 13)}${c.summary}`
      : `  yardmaster ${c.usage.padEnd(width)}  ${c.summary}`,
  );
  return [
    "Yardmaster: a self-hosted workflow run service.",
    "",
    "Usage:",
    ...lines,
    "  yardmaster --help | --version",
    "",
    "Client commands talk to a running server at $YARDMASTER_URL (default",
    "http://127.0.0.1:8420) with the token in $YARDMASTER_TOKEN; each also takes",
    "--url URL, --token T, and --json to print the API's JSON instead of a table.",
    "",
    "`yardmaster COMMAND --help` shows one command's usage.",
  ].join("\n");
}

export function commandHelp(command: CommandEntry): string {
  const details = command.details ? `\n\n${command.details}` : "";
  return `Usage: yardmaster ${command.usage}\n\n${command.summary}${details}`;
}

/** The package version, read from package.json so it cannot drift from the release. */
export async function packageVersion(): Promise<string> {
  const text = await readFile(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}
