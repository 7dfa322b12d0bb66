// An agent at work: `draft` hands the run to the configured ACP agent and checks what it
// submitted against an output model; `publish` files the result in the work log. Serve it with
// examples/scribe.toml, which runs the scripted agent of examples/agents/ (swap in any agent that
// speaks ACP). The run's description is that agent's script; a plain title makes it echo.
import { workflow } from "yardmaster";
import { z } from "zod";

const Draft = z.object({ summary: z.string().min(1), label: z.string() });

export const scribe = workflow("scribe");

scribe.node(
  { start: true, retries: 1 },
  async function draft({ publish }, input: { title: string; description: string }, ctx) {
    const result = await ctx.agent({
      prompt: input.description || input.title,
      output: Draft,
      permissions: "ask", // a permission the agent asks for lands in the inbox
      timeout: 300,
    });
    return publish(result);
  },
);

scribe.node(async function publish({}, draft: z.infer<typeof Draft>, ctx) {
  await ctx.log(`**${draft.label}**: ${draft.summary}`, { kind: "deliverable" });
  return draft;
});
