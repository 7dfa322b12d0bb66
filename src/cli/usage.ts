// Help and version text for `yardmaster --help` and `yardmaster --version`.
import { readFile } from "node:fs/promises";
import type { CommandEntry } from "./commands/registry.ts";

export function generalHelp(commands: readonly CommandEntry[]): string {
  const width = Math.max(...commands.map((c) => c.usage.length));
  const lines = commands.map((c) => `  yardmaster ${c.usage.padEnd(width)}  ${c.summary}`);
  return [
    "Yardmaster: a self-hosted workflow run service.",
    "",
    "Usage:",
    ...lines,
    "  yardmaster --help | --version",
    "",
    "`yardmaster COMMAND --help` shows one command's usage.",
  ].join("\n");
}

export function commandHelp(command: CommandEntry): string {
  return `Usage: yardmaster ${command.usage}\n\n${command.summary}`;
}

/** The package version, read from package.json so it cannot drift from the release. */
export async function packageVersion(): Promise<string> {
  const text = await readFile(new URL("../../package.json", import.meta.url), "utf8");
  return (JSON.parse(text) as { version: string }).version;
}
