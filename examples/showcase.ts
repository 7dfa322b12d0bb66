// A workflow that exercises the plugin surface: one panel of every kind (markdown, kv, table,
// log, chart, dashboard, form, custom) and a form action. `measure` derives a few readings
// from the run's title, `score` summarises them, and both publish plugin events on the way.
// Register it with: POST /api/workflows {"target": "examples/showcase.ts:showcase"}.
import { workflow } from "yardmaster";
import { z } from "zod";

export const showcase = workflow("showcase");

interface Reading {
  label: string;
  value: number;
}

/** The slice of a plugin's `ctx` this file uses (see docs/plugins.md for all of it). */
interface Ctx {
  run(): Promise<{
    title: string;
    status: string;
    output?: unknown;
    tasks?: Array<{ node: string; attempt: number; status: string; result?: unknown }>;
  }>;
  runLog(): Promise<Array<{ author: string; text: string; created: string }>>;
  log(text: string): Promise<number>;
  publish(name: string, data?: Record<string, unknown>): Promise<void>;
}

/** Turns each word of the title into a reading (its length times its position). */
showcase.node({ start: true }, async function measure({ score }, input: { title: string }, ctx) {
  const words = input.title.split(/\s+/).filter(Boolean);
  const readings: Reading[] = words.map((w, i) => ({ label: w, value: w.length * (i + 1) }));
  ctx.publish("measured", { count: readings.length });
  await ctx.log(`measured ${readings.length} reading(s)`);
  return score(readings);
});

/** Summarises the readings; the run's output. */
showcase.node(async function score({}, readings: Reading[], ctx) {
  const total = readings.reduce((sum, r) => sum + r.value, 0);
  ctx.publish("scored", { total });
  return { total, max: Math.max(0, ...readings.map((r) => r.value)), readings };
});

const Annotation = z.object({
  note: z.string().min(1),
  severity: z.enum(["info", "warning"]).default("info"),
});

showcase.action({
  name: "annotate",
  title: "Add a note",
  scope: "run",
  confirm: false,
  input: Annotation,
  handler: async (input: z.infer<typeof Annotation>, _scope: unknown, ctx: Ctx) => {
    const logId = await ctx.log(`[${input.severity}] ${input.note}`);
    await ctx.publish("annotated", { log_id: logId, severity: input.severity });
    return { ok: true, log_id: logId };
  },
});

const readingsOf = async (ctx: Ctx): Promise<Reading[]> => {
  const measured = (await ctx.run()).tasks?.find((t) => t.node === "measure" && t.result);
  return (measured?.result as Reading[] | undefined) ?? [];
};

showcase.panel({
  name: "summary",
  slot: "run",
  placement: "card",
  kind: "markdown",
  scope: "run",
  refresh_on: ["run.*"],
  data: async (_scope: unknown, ctx: Ctx) => {
    const run = await ctx.run();
    return `## ${run.title}\n\nStatus: **${run.status}**`;
  },
});

showcase.panel({
  name: "facts",
  slot: "run",
  placement: "card",
  kind: "kv",
  scope: "run",
  data: async (_scope: unknown, ctx: Ctx) => {
    const run = await ctx.run();
    return { title: run.title, status: run.status, attempts: run.tasks?.length ?? 0 };
  },
});

showcase.panel({
  name: "attempts",
  slot: "run",
  placement: "pane",
  kind: "table",
  scope: "run",
  refresh_on: ["task.*"],
  data: async (_scope: unknown, ctx: Ctx) => ({
    columns: ["node", "attempt", "status"],
    rows: ((await ctx.run()).tasks ?? []).map((t) => [t.node, t.attempt, t.status]),
  }),
});

showcase.panel({
  name: "notes",
  slot: "run",
  placement: "pane",
  kind: "log",
  scope: "run",
  refresh_on: ["log.appended"],
  data: async (_scope: unknown, ctx: Ctx) =>
    (await ctx.runLog()).map((e) => ({ at: e.created, author: e.author, text: e.text })),
});

showcase.panel({
  name: "trend",
  slot: "run",
  placement: "pane",
  kind: "chart",
  scope: "run",
  data: async (_scope: unknown, ctx: Ctx) => ({
    kind: "bar",
    series: [{ name: "reading", points: (await readingsOf(ctx)).map((r) => [r.label, r.value]) }],
  }),
});

showcase.panel({
  name: "overview",
  slot: "run",
  placement: "card",
  kind: "dashboard",
  scope: "run",
  data: async (_scope: unknown, ctx: Ctx) => {
    const readings = await readingsOf(ctx);
    const total = readings.reduce((sum, r) => sum + r.value, 0);
    return {
      metrics: [
        { label: "readings", value: readings.length },
        { label: "total", value: total },
      ],
      note: readings.length ? null : "No readings yet.",
      table: { columns: ["label", "value"], rows: readings.map((r) => [r.label, r.value]) },
    };
  },
});

showcase.panel({
  name: "annotate_form",
  slot: "run",
  placement: "pane",
  kind: "form",
  scope: "run",
  action: "annotate",
});

showcase.panel({
  name: "viz",
  slot: "node",
  node: "score",
  placement: "pane",
  kind: "custom",
  scope: "task",
  element: "showcase-viz",
  asset: "./showcase-viz.js",
});
