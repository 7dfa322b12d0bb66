// `yardmaster runs [--status S] [--workflow W]`: the dispatch list, in position order.
import type { RunStatus, RunSummary } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import type { Style } from "../format/style.ts";
import { renderTable, truncate } from "../format/table.ts";
import { relativeTime } from "../format/time.ts";
import { stringOption } from "../parse-args.ts";

export const run = clientCommand("runs", {
  options: { status: "string", workflow: "string" },
  async run({ client, parsed, io, json, style }) {
    const workflow = stringOption(parsed, "workflow");
    const runs = await client.get("/api/runs", {
      query: {
        // As typed: the server judges an unknown status (its 422 names the field).
        status: stringOption(parsed, "status") as RunStatus | undefined,
        workflow,
      },
    });
    // The list filters by name without knowing workflows, so a mistyped name would read as "no
    // runs": when nothing matched, a name no workflow has ends with its 404 (exit 1). A removed
    // workflow whose runs remain still lists them.
    if (runs.length === 0 && workflow !== undefined) {
      await client.get("/api/workflows/{name}", { params: { name: workflow } });
    }
    if (json) return void printJson(io, runs);
    if (runs.length === 0) return void io.out("No runs.");
    for (const line of runsTable(runs, style)) io.out(line);
    return undefined;
  },
});

export function runsTable(runs: RunSummary[], style: Style, now = Date.now()): string[] {
  const rows = runs.map((r) => [
    String(r.position),
    r.id,
    style.status(r.status),
    r.unregistered ? `${r.workflow} ${style.yellow("(unregistered)")}` : r.workflow,
    truncate(r.title, 40),
    (r.current_nodes ?? []).join(",") || "-",
    r.pending_requests ? style.yellow(String(r.pending_requests)) : "-",
    relativeTime(r.updated, now),
  ]);
  return renderTable(
    [
      { header: "POS", align: "right" },
      { header: "RUN" },
      { header: "STATUS" },
      { header: "WORKFLOW" },
      { header: "TITLE" },
      { header: "NODES" },
      { header: "ASKS", align: "right" },
      { header: "UPDATED" },
    ],
    rows,
  );
}
