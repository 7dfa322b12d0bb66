// A person decides: `draft` asks an approver through ctx.ask and routes on the chosen option.
import { workflow } from "yardmaster";

interface Draft {
  title: string;
  description?: string;
}

export const approval = workflow("approval");

/** Writes a draft and asks whether to ship it. */
approval.node({ start: true }, async function draft({ ship, revise, drop }, input: Draft, ctx) {
  const text = `${input.title}\n\n${input.description ?? ""}`.trim();
  await ctx.log(`draft ready:\n${text}`, { kind: "deliverable" });
  const answer = await ctx.ask({
    prompt: `Ship "${input.title}"?`,
    options: [
      { option_id: "ship", name: "Ship it", kind: "allow_once" },
      { option_id: "revise", name: "Revise first" },
      { option_id: "drop", name: "Drop it", kind: "reject_once" },
    ],
  });
  if (answer === "ship") return ship({ text });
  if (answer === "revise") return revise({ text, round: 1 });
  return drop;
});

/** Asks for the change to make, then offers the draft again. */
approval.node(async function revise({ draft }, work: { text: string; round: number }, ctx) {
  const note = await ctx.ask({ prompt: "What should change?", kind: "elicitation" });
  return draft({ title: work.text.split("\n")[0], description: `revision: ${String(note)}` });
});

approval.node(async function ship({}, work: { text: string }, ctx) {
  await ctx.log(`shipped: ${work.text}`, { kind: "deliverable" });
  return { shipped: true, text: work.text };
});

approval.node(async function drop() {
  return { shipped: false };
});
