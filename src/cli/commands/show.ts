// `yardmaster show RUN`: one run's header fields, its output and its tasks.
import type { RunDetail, TaskView } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import type { Style } from "../format/style.ts";
import { renderFields, renderTable, truncate } from "../format/table.ts";
import { preciseDuration, relativeTime, secondsBetween } from "../format/time.ts";

export const run = clientCommand("show", {
  positionals: ["RUN"],
  async run({ client, args, io, json, style }) {
    const detail = await client.get("/api/runs/{run_id}", { params: { run_id: args[0] } });
    if (json) return void printJson(io, detail);
    for (const line of runDetailLines(detail, style)) io.out(line);
    return undefined;
  },
});

export function runDetailLines(run: RunDetail, style: Style, now = Date.now()): string[] {
  const fields: Array<[string, string]> = [
    ["Run", style.bold(run.id)],
    ["Title", run.title],
    ["Workflow", run.unregistered ? `${run.workflow} (unregistered)` : run.workflow],
    ["Status", style.status(run.status)],
    ["Position", String(run.position)],
    ["Created", `${run.created} (${relativeTime(run.created, now)})`],
    ["Updated", `${run.updated} (${relativeTime(run.updated, now)})`],
  ];
  if (run.description) fields.push(["Description", run.description]);
  if (run.current_nodes?.length) fields.push(["Current nodes", run.current_nodes.join(", ")]);
  if (run.pending_requests) fields.push(["Pending requests", String(run.pending_requests)]);
  const stats = statsText(run.stats);
  if (stats) fields.push(["Agent stats", stats]);
  const lines = renderFields(fields);
  lines.push("", "Output:", ...outputLines(run));
  const tasks = run.tasks ?? [];
  lines.push("", `Tasks (${tasks.length}):`);
  if (tasks.length > 0) lines.push(...tasksTable(tasks, style).map((l) => `  ${l}`));
  return lines;
}

function outputLines(run: RunDetail): string[] {
  const ended = ["completed", "failed", "cancelled"].includes(run.status);
  if (!ended && (run.output === null || run.output === undefined)) return ["  (not yet)"];
  return JSON.stringify(run.output ?? null, null, 2)
    .split("\n")
    .map((l) => `  ${l}`);
}

function statsText(stats: RunDetail["stats"]): string {
  if (!stats) return "";
  const parts = Object.entries(stats)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([key, value]) => `${key}=${value}`);
  return parts.join(" ");
}

export function tasksTable(tasks: TaskView[], style: Style): string[] {
  const rows = tasks.map((t) => {
    const took = secondsBetween(t.started, t.finished);
    return [
      `#${t.id}`,
      t.node,
      String(t.attempt),
      style.status(t.status),
      took === null ? "-" : preciseDuration(took),
      t.terminal ? "yes" : "",
      t.error ? style.red(truncate(t.error, 60)) : "",
    ];
  });
  return renderTable(
    [
      { header: "TASK" },
      { header: "NODE" },
      { header: "ATTEMPT", align: "right" },
      { header: "STATUS" },
      { header: "TOOK", align: "right" },
      { header: "END" },
      { header: "ERROR" },
    ],
    rows,
  );
}
