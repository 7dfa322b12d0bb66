// `yardmaster schedules`: the server's schedules with their next and last fire.
import type { ScheduleOut } from "../client/api-types.ts";
import { clientCommand, printJson } from "../client/command-kit.ts";
import { renderTable } from "../format/table.ts";

export const run = clientCommand("schedules", {
  async run({ client, io, json }) {
    const schedules = await client.get("/api/schedules");
    if (json) return void printJson(io, schedules);
    if (schedules.length === 0) return void io.out("No schedules.");
    for (const line of schedulesTable(schedules)) io.out(line);
    return undefined;
  },
});

export function schedulesTable(schedules: ScheduleOut[]): string[] {
  const rows = schedules.map((s) => [
    s.name,
    s.workflow,
    `${s.cron} (${s.timezone})`,
    s.enabled ? "yes" : "no",
    s.next_fire ?? "-",
    s.last_fire ? `${s.last_fire} ${s.last_run_id ?? ""}`.trim() : "-",
  ]);
  return renderTable(
    [
      { header: "SCHEDULE" },
      { header: "WORKFLOW" },
      { header: "CRON" },
      { header: "ENABLED" },
      { header: "NEXT FIRE" },
      { header: "LAST FIRE" },
    ],
    rows,
  );
}
