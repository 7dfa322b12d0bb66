// The project a black-box suite writes for itself: workflow modules, a plugin asset, an ACP
// agent and a yardmaster.toml, all in a fresh folder outside this repository.
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const AGENT = resolve(import.meta.dirname, "../fixtures/blackbox/relay-agent.mjs");

const FORM_SCHEMA = `{ type: "object", properties: { age: { type: "integer", minimum: 0 },
  name: { type: "string" } }, required: ["age", "name"] }`;

const INBOX = `import { workflow } from "yardmaster";
export const inbox = workflow("inbox");
inbox.node({ start: true }, async function asker({ other }, input: unknown, ctx) {
  const choice = await ctx.ask({ prompt: "Pick one",
    options: ["red", { option_id: "blue", name: "Blue!", kind: "allow_once" }] });
  const text = await ctx.ask({ prompt: "Say something", kind: "elicitation" });
  const form = await ctx.ask({ prompt: "Fill", schema: ${FORM_SCHEMA} });
  return { choice, text, form };
});
inbox.node(async function other({}, got: unknown) { return got; });
`;

const QUICK = `import { workflow } from "yardmaster";
export const quick = workflow("quick");
quick.node({ start: true }, async function only({}, input: unknown) { return "quick done"; });
`;

const DURABLE = `import { workflow } from "yardmaster";
export const durable = workflow("durable");
durable.node({ start: true }, async function twice({}, input: unknown, ctx) {
  const first = await ctx.ask({ prompt: "First?", options: ["a", "b"] });
  const second = await ctx.ask({ prompt: "Second?" });
  return { first, second };
});
`;

const AGENTIC = `import { workflow } from "yardmaster";
export const agentic = workflow("agentic");
const output = { type: "object", properties: { answer: { type: "string" } },
  required: ["answer"], additionalProperties: false };
agentic.node({ start: true }, async function work({ review }, input: unknown, ctx) {
  return await ctx.agent({ prompt: "Do the work", agent: "relay", output, ask: "http" });
});
agentic.node(async function review({}, got: unknown, ctx) {
  return await ctx.agent({ prompt: "Review it", agent: "relay" });
});
`;

function blocker(dir: string): string {
  return `import { existsSync } from "node:fs";
import { workflow } from "yardmaster";
export const blocker = workflow("blocker");
blocker.node({ start: true }, async function hold({}, input: unknown, ctx) {
  const deadline = Date.now() + 20000;
  while (!existsSync(${JSON.stringify(join(dir, "unblock"))}) && Date.now() < deadline) {
    if (ctx.signal.aborted) return "aborted";
    await new Promise((r) => setTimeout(r, 30));
  }
  return "released";
});
`;
}

const PLUG = `import { workflow } from "yardmaster";
export const plug = workflow("plug");
plug.node({ start: true }, async function only() { return 1; });
plug.action({ name: "approve", title: "Approve", scope: "global", confirm: true,
  input: { type: "object", properties: { note: { type: "string", minLength: 1 },
    count: { type: "integer" } }, required: ["note", "count"] },
  handler: async (input: any) => ({ approved: input.note, count: input.count }) });
plug.action({ name: "explode", title: "Explode", scope: "global",
  handler: async () => { throw new Error("handler blew up"); } });
plug.panel({ name: "md", slot: "global", placement: "card", kind: "markdown", scope: "global",
  data: async () => "# Hello" });
plug.panel({ name: "facts", slot: "global", placement: "card", kind: "kv", scope: "global",
  data: async () => ({ a: 1, b: "two" }) });
plug.panel({ name: "grid", slot: "global", placement: "pane", kind: "table", scope: "global",
  data: async () => ({ columns: ["x", "y"], rows: [[1, 2]] }) });
plug.panel({ name: "trend", slot: "global", placement: "card", kind: "chart", scope: "global",
  data: async () => ({ series: [{ name: "s", points: [1, 2, 3] }], kind: "line" }) });
plug.panel({ name: "board", slot: "global", placement: "pane", kind: "dashboard",
  scope: "global", data: async () => ({ metrics: [{ label: "m", value: 3 }] }) });
plug.panel({ name: "approve_form", slot: "run", placement: "pane", kind: "form", scope: "run",
  action: "approve" });
plug.panel({ name: "viz", slot: "node", node: "only", placement: "pane", kind: "custom",
  scope: "task", element: "plug-viz", asset: "./viz.js" });
`;

const SWAP = (tag: string) => `import { workflow } from "yardmaster";
export const swap = workflow("swap");
swap.node({ start: true }, async function first({ second }, input: unknown, ctx) {
  return await ctx.ask({ prompt: "Go on?" });
});
swap.node({ retries: 1, timeout: 12.5, label: "Second step", description: "says which" },
  async function second({}, got: unknown) { return "${tag}"; });
`;

const BAD: Record<string, string> = {
  "bad-import.ts": `import { workflow } from "yardmaster";\nthrow new Error("import exploded");\n`,
  "not-wf.ts": "export const thing = 42;\n",
  "bad-graph.ts": `import { workflow } from "yardmaster";
export const twostarts = workflow("twostarts");
twostarts.node({ start: true }, async function a() { return 1; });
twostarts.node({ start: true }, async function b() { return 2; });
`,
  "bad-plugin.ts": `import { workflow } from "yardmaster";
export const badplug = workflow("badplug");
badplug.node({ start: true }, async function a() { return 1; });
badplug.panel({ name: "p", slot: "run", placement: "card", kind: "bogus", scope: "run",
  data: async () => 1 });
`,
  "other-name.ts": `import { workflow } from "yardmaster";
export const swap = workflow("different");
swap.node({ start: true }, async function a() { return 1; });
`,
  "retry.ts": `import { workflow } from "yardmaster";
export const retry = workflow("retry");
retry.node({ start: true, retries: 1 }, async function flaky({}, input: unknown, ctx) {
  const pick = await ctx.ask({ prompt: "Again?", options: ["x", "y"] });
  if (ctx.task.attempt === 1) throw new Error("first attempt fails");
  return { pick, attempt: ctx.task.attempt };
});
`,
  "reserved.ts": `import { workflow } from "yardmaster";
export const runs = workflow("runs");
runs.node({ start: true }, async function a() { return 1; });
`,
  "gone.ts": `import { workflow } from "yardmaster";
export const gone = workflow("gone");
gone.node({ start: true }, async function only() { return "gone done"; });
`,
};

const CONFIG = (dir: string) => `[pools.default]
capacity = 4

[pools.solo]
capacity = 1

[pools.held]
capacity = 1

[workflows.inbox]
target = "wf/inbox.ts:inbox"
pool = "solo"

[workflows.quick]
target = "wf/quick.ts:quick"
pool = "solo"

[workflows.durable]
target = "wf/durable.ts:durable"

[workflows.agentic]
target = "wf/agentic.ts:agentic"

[workflows.blocker]
target = "wf/blocker.ts:blocker"
pool = "held"

[workflows.plug]
target = "wf/plug.ts:plug"

[agents.relay]
command = ["${process.execPath}", "${join(dir, "relay-agent.mjs")}", "${dir}"]
timeout = 60
`;

/** Writes the project into `dir` and answers the config file's path. */
export function writeProject(dir: string): string {
  const wf = join(dir, "wf");
  mkdirSync(wf, { recursive: true });
  const files: Record<string, string> = {
    "inbox.ts": INBOX,
    "quick.ts": QUICK,
    "durable.ts": DURABLE,
    "agentic.ts": AGENTIC,
    "blocker.ts": blocker(dir),
    "plug.ts": PLUG,
    "viz.js": "customElements.define('plug-viz', class extends HTMLElement {});\n",
    "swap.ts": SWAP("v1"),
    "swap-v2.ts": SWAP("v2"),
    ...BAD,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(wf, name), text);
  copyFileSync(AGENT, join(dir, "relay-agent.mjs"));
  const config = join(dir, "yardmaster.toml");
  writeFileSync(config, CONFIG(dir));
  return config;
}
