// `yardmaster log RUN [--write TEXT]`: a run's work log, oldest first and never truncated; with
// --write, an operator note is appended instead.
import type { LogEntry } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import type { Style } from "../format/style.ts";
import { clockTime } from "../format/time.ts";
import { stringOption } from "../parse-args.ts";

export const run = clientCommand("log", {
  positionals: ["RUN"],
  options: { write: "string" },
  async run({ client, args, parsed, io, json, style }) {
    const params = { run_id: args[0] };
    const text = stringOption(parsed, "write");
    if (text !== undefined) {
      const ref = await client.post("/api/runs/{run_id}/log", { params, body: { text } });
      if (json) return void printJson(io, ref);
      return void io.out(`Log entry ${ref.log_id} written to run ${args[0]}.`);
    }
    const entries = await client.get("/api/runs/{run_id}/log", { params });
    if (json) return void printJson(io, entries);
    if (entries.length === 0) return void io.out("The work log is empty.");
    for (const entry of entries) for (const line of logLines(entry, style)) io.out(line);
    return undefined;
  },
});

/**
 * A head line (time, author, kind, the operator who wrote it, node, task) and the text below it,
 * indented, whole.
 */
export function logLines(entry: LogEntry, style: Style): string[] {
  const author = entry.kind ? `${entry.author}/${entry.kind}` : entry.author;
  const who = entry.operator ? `${author} by ${entry.operator}` : author;
  const task = entry.task_id == null ? "" : ` #${entry.task_id}`;
  const head = `${style.dim(clockTime(entry.created))}  ${style.bold(who)}  ${entry.node}${task}`;
  const text = entry.text.split(/\r?\n/).map((line) => `    ${line}`.trimEnd());
  return [head, ...text];
}
