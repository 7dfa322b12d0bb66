// `yardmaster workflows`: what the server has registered, with each pool's use.
import type { WorkflowOut } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import { renderTable } from "../format/table.ts";

export const run = clientCommand("workflows", {
  async run({ client, io, json }) {
    const workflows = await client.get("/api/workflows");
    if (json) return void printJson(io, workflows);
    if (workflows.length === 0) return void io.out("No workflows registered.");
    for (const line of workflowsTable(workflows)) io.out(line);
    return undefined;
  },
});

export function workflowsTable(workflows: WorkflowOut[]): string[] {
  const rows = workflows.map((w) => [
    w.name,
    w.start,
    String(Object.keys(w.nodes).length),
    w.pool,
    `${w.in_flight}/${w.capacity}`,
    w.target ?? "(programmatic)",
  ]);
  return renderTable(
    [
      { header: "WORKFLOW" },
      { header: "START" },
      { header: "NODES", align: "right" },
      { header: "POOL" },
      { header: "SLOTS", align: "right" },
      { header: "TARGET" },
    ],
    rows,
  );
}
