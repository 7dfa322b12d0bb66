// The `_builtin` manifest entry: the views the core ships, declared like any plugin's panels
// and served by the same data route, so a client renders them with the code it renders
// plugins with. Only views the core can feed honestly from its own records are listed.
import type { OperatorService } from "../service/api.ts";
import { panelSource } from "./compile-panel.ts";
import type { CompiledPanel, CompiledPlugin, PanelDataFn } from "./types.ts";

export const BUILTIN = "_builtin";

/** Stream chunks a transcript panel shows at most (the newest are fetched by the client). */
const TRANSCRIPT_PAGE = 1000;

function panel(
  name: string,
  fields: Pick<CompiledPanel, "slot" | "placement" | "kind" | "scope" | "refresh_on">,
  data: PanelDataFn,
): CompiledPanel {
  return {
    name,
    ...fields,
    source: panelSource(BUILTIN, name),
    node: null,
    element: null,
    data,
    asset: null,
  };
}

/** The run's output as a fenced JSON block, or a line saying why there is none yet. */
function outputMarkdown(status: string, output: unknown): string {
  if (status !== "completed")
    return `**Status:** ${status}. The output appears when the run completes.`;
  return `**Status:** completed\n\n\`\`\`json\n${JSON.stringify(output ?? null, null, 2)}\n\`\`\``;
}

export function builtinPlugin(service: OperatorService): CompiledPlugin {
  const panels = [
    panel(
      "output",
      { slot: "run", placement: "card", kind: "markdown", scope: "run", refresh_on: ["run.*"] },
      async (_scope, ctx) => {
        const run = await ctx.run();
        return outputMarkdown(run.status, run.output);
      },
    ),
    panel(
      "log",
      { slot: "run", placement: "pane", kind: "log", scope: "run", refresh_on: ["log.appended"] },
      async (_scope, ctx) => ctx.runLog(),
    ),
    panel(
      "transcript",
      { slot: "task", placement: "pane", kind: "log", scope: "task", refresh_on: ["task.*"] },
      async (scope) =>
        (await service.taskStream(scope.task_id!, { after: 0, limit: TRANSCRIPT_PAGE })).chunks,
    ),
  ];
  return {
    workflow: BUILTIN,
    actions: new Map(),
    panels: new Map(panels.map((p) => [p.name, p])),
    assets: [],
  };
}
