// Workflow files the registration and plugin tests write at run time, and small polls over the
// HTTP API. Files live in the test server's own folder (its configuration folder), so targets
// can be written relative to it as a user would.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { TestServer } from "./server-harness.ts";
import { eventually } from "./wait.ts";

const ENTRY = pathToFileURL(fileURLToPath(new URL("../../src/index.ts", import.meta.url))).href;
const ZOD = import.meta.resolve("zod");

/**
 * Writes `text` to `rel` under `dir`, with YARDMASTER and ZOD replaced by absolute module URLs
 * (a folder outside the package cannot import them by name). Answers the absolute path.
 */
export function writeWorkflow(dir: string, rel: string, text: string): string {
  writeFileSync(path.join(dir, "package.json"), '{ "type": "module" }\n');
  const file = path.join(dir, rel);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text.replaceAll("YARDMASTER", ENTRY).replaceAll("ZOD", ZOD));
  return file;
}

/**
 * `first -> second`. `first` holds until the file named by the run's description exists (a
 * gate the test opens), then hands `<tag>-first` on; `second` appends `<tag>-second`. The run's
 * output therefore says which body ran each node.
 */
export function gatedChain(name: string, tag: string): string {
  return `import { existsSync } from "node:fs";
import { workflow } from "YARDMASTER";
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function first({ second }, input: { description: string }, ctx) {
  const deadline = Date.now() + 15_000;
  while (input.description && !existsSync(input.description)) {
    if (ctx.signal.aborted || Date.now() > deadline) throw new Error("the gate never opened");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return second("${tag}-first");
});
${name}.node(async function second({}, text: string) {
  return text + "|${tag}-second";
});
`;
}

export async function submit(s: TestServer, workflow: string, title: string, gate = "") {
  const r = await s.call("POST", `/api/workflows/${workflow}/runs`, { title, description: gate });
  if (r.status !== 201)
    throw new Error(`submit ${workflow}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.run_id as string;
}

export async function runIn(s: TestServer, runId: string, statuses: string[]) {
  return eventually(
    async () => {
      const r = await s.call("GET", `/api/runs/${runId}`);
      return statuses.includes(r.body.status) && r.body;
    },
    `run ${runId} in ${statuses.join("|")}`,
  );
}

/** The task of `node` in the run once it has `status`. */
export async function taskIn(s: TestServer, runId: string, node: string, status: string) {
  return eventually(async () => {
    const r = await s.call("GET", `/api/runs/${runId}`);
    return r.body.tasks?.find((t: any) => t.node === node && t.status === status);
  }, `task ${node} of ${runId} ${status}`);
}

/** Stored events named `name` (no run id: workflow.* and engine.* events). */
export async function storedEvents(s: TestServer, name: string) {
  const all = await s.engine.store.listEvents({ after: 0, limit: 10_000 });
  return all.filter((e) => e.name === name);
}
