// The demo the server registers when it starts with no configuration: small enough to read in
// one glance, slow enough (short sleeps) to watch in the UI. plan fans out one brew per cup,
// serve joins them.
import { type Arrival, workflow } from "yardmaster";

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export const demo = workflow("demo");

/** Reads the order from the run's title and plans one cup per word. */
demo.node({ start: true }, async function plan({ brew }, order: { title: string }, ctx) {
  const cups = order.title.split(/\s+/).filter(Boolean).slice(0, 5);
  if (cups.length === 0) cups.push("espresso");
  await ctx.log(`planning ${cups.length} cup(s): ${cups.join(", ")}`);
  await pause(300);
  return cups.map((cup) => brew(cup));
});

/** Brews one cup; each cup is its own branch. */
demo.node(async function brew({ taste }, cup: string, ctx) {
  await ctx.log(`brewing ${cup}`);
  await pause(300);
  return taste({ cup, seconds: cup.length });
});

/** Tastes one cup and passes a verdict along to the join. */
demo.node(async function taste({ serve }, brewed: { cup: string; seconds: number }, ctx) {
  await pause(300);
  await ctx.log(`tasted ${brewed.cup}`, { kind: "note" });
  return serve({ cup: brewed.cup, verdict: brewed.seconds % 2 === 0 ? "smooth" : "bold" });
});

/** Waits for every cup, then serves the tray (the run's output). */
demo.node(
  { join: true },
  async function serve({}, cups: Arrival<{ cup: string; verdict: string }>[], ctx) {
    await pause(300);
    await ctx.log(`serving ${cups.length} cup(s)`, { kind: "deliverable" });
    return { tray: cups.map((a) => `${a.value.cup} (${a.value.verdict})`) };
  },
);
