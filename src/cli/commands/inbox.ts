// `yardmaster inbox`: the requests a person can still act on, across runs, oldest first, each
// with the `answer` flag that fits it. `--answered`: the answered ones instead, with the answer
// and who gave it (the operator's name, or `user`/`engine` when no operator was recorded).
import type { ApiClient } from "../client/api-client.ts";
import type { RequestView } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import { answerHint } from "../format/answer-hint.ts";
import type { Style } from "../format/style.ts";
import { renderTable, truncate } from "../format/table.ts";
import { compactDuration } from "../format/time.ts";

export const run = clientCommand("inbox", {
  options: { run: "string", answered: "boolean" },
  async run({ client, parsed, io, json, style }) {
    const run = typeof parsed.options.run === "string" ? parsed.options.run : undefined;
    if (parsed.options.answered === true) {
      const all = await client.get("/api/requests", { query: { run } });
      const answered = all.filter((r) => r.answered_by != null);
      if (json) return void printJson(io, answered);
      if (answered.length === 0) return void io.out("No request was answered yet.");
      for (const line of answeredTable(answered, await runTitles(client, answered))) io.out(line);
      return undefined;
    }
    const requests = await client.get("/api/requests", { query: { pending: true, run } });
    if (json) return void printJson(io, requests);
    if (requests.length === 0) return void io.out("Inbox empty: nothing waits on a person.");
    for (const line of inboxTable(requests, await runTitles(client, requests), style)) io.out(line);
    return undefined;
  },
});

/** Runs whose titles the inbox looks up, one request each: past this, the column shows ids. */
const MAX_TITLED_RUNS = 50;

/**
 * The titles of the runs the requests belong to, read run by run (a request carries only its
 * run's id, and the whole run list may be long); a run gone meanwhile has no title.
 */
async function runTitles(client: ApiClient, requests: RequestView[]): Promise<Map<string, string>> {
  const ids = [...new Set(requests.map((r) => r.run_id))].slice(0, MAX_TITLED_RUNS);
  const details = await Promise.all(
    ids.map((run_id) => client.get("/api/runs/{run_id}", { params: { run_id } }).catch(() => null)),
  );
  return new Map(details.flatMap((d) => (d ? [[d.id, d.title] as const] : [])));
}

/** Who answered: the operator's name when one was recorded, else the author (`user`, `engine`). */
export function answeredBy(r: RequestView): string {
  return r.operator ?? r.answered_by ?? "-";
}

function runLabel(r: RequestView, titles: ReadonlyMap<string, string>): string {
  return titles.has(r.run_id) ? `${truncate(titles.get(r.run_id)!, 30)} (${r.run_id})` : r.run_id;
}

export function answeredTable(
  requests: RequestView[],
  titles: ReadonlyMap<string, string>,
): string[] {
  const rows = requests.map((r) => [
    String(r.id),
    runLabel(r, titles),
    `${r.node} #${r.task_id}`,
    truncate(r.prompt, 40),
    truncate(JSON.stringify(r.answer ?? null), 30),
    answeredBy(r),
  ]);
  return renderTable(
    [
      { header: "ID", align: "right" },
      { header: "RUN" },
      { header: "TASK" },
      { header: "PROMPT" },
      { header: "ANSWER" },
      { header: "ANSWERED BY" },
    ],
    rows,
  );
}

export function inboxTable(
  requests: RequestView[],
  titles: ReadonlyMap<string, string>,
  style: Style,
): string[] {
  const rows = requests.map((r) => [
    String(r.id),
    compactDuration(r.age),
    runLabel(r, titles),
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
