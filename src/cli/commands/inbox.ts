// `yardmaster inbox`: the requests a person can still act on, across runs, oldest first, each
// with the `answer` flag that fits it.
import type { RequestView } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import type { Style } from "../format/style.ts";
import { renderTable, truncate } from "../format/table.ts";
import { compactDuration } from "../format/time.ts";

export const run = clientCommand("inbox", {
  options: { run: "string" },
  async run({ client, parsed, io, json, style }) {
    const run = typeof parsed.options.run === "string" ? parsed.options.run : undefined;
    const requests = await client.get("/api/requests", { query: { pending: true, run } });
    if (json) return void printJson(io, requests);
    if (requests.length === 0) return void io.out("Inbox empty: nothing waits on a person.");
    for (const line of inboxTable(requests, style)) io.out(line);
    return undefined;
  },
});

/** How to answer: the option ids to pick from, or the kind of value expected. */
export function answerHint(request: RequestView): string {
  if (request.mode === "options") {
    const ids = (request.options ?? []).map((o) => o.option_id);
    return `--option ${ids.join("|")}`;
  }
  return request.mode === "form" ? "--value JSON" : "--text STRING";
}

export function inboxTable(requests: RequestView[], style: Style): string[] {
  const rows = requests.map((r) => [
    String(r.id),
    compactDuration(r.age),
    r.run_id,
    `${r.node} #${r.task_id}`,
    r.kind,
    truncate(r.prompt, 50),
    style.yellow(truncate(answerHint(r), 40)),
  ]);
  return renderTable(
    [
      { header: "ID", align: "right" },
      { header: "AGE", align: "right" },
      { header: "RUN" },
      { header: "TASK" },
      { header: "KIND" },
      { header: "PROMPT" },
      { header: "ANSWER WITH" },
    ],
    rows,
  );
}
