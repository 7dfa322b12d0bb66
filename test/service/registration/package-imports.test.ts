// Hot registration read against http-api.md and typescript.md section 1 over a real server:
// a workflow file imports "yardmaster" (and "zod") by name, wherever it lives.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultToml, startTestServer, type TestServer } from "../../support/server-harness.ts";
import { runIn, submit } from "../../support/workflow-files.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(defaultToml());
});
afterAll(async () => {
  await s?.close();
});

const byName = (name: string) => `import { workflow, NonRetryable } from "yardmaster";
import { z } from "zod";
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function only() {
  if (typeof NonRetryable !== "function") throw new Error("no NonRetryable");
  return "${name} ran";
});
${name}.action({ name: "note", title: "Note", scope: "global",
  input: z.object({ text: z.string().min(1) }), handler: async (input) => input });
`;

/** A folder no project encloses: nothing there depends on yardmaster. */
function writeLoose(folder: string, module: "esm" | "cjs", name: string): string {
  const dir = path.join(s.dir, folder);
  mkdirSync(dir, { recursive: true });
  const type = module === "esm" ? "module" : "commonjs";
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type }));
  writeFileSync(path.join(dir, `${name}.ts`), byName(name));
  return `${folder}/${name}.ts:${name}`;
}

describe("yardmaster and zod imported by name outside any project that depends on them", () => {
  it("resolves to the serving package, in an ES module folder and a CommonJS one", async () => {
    for (const [folder, module, name] of [
      ["loose-esm", "esm", "loose_esm"],
      ["loose-cjs", "cjs", "loose_cjs"],
    ] as const) {
      const target = writeLoose(folder, module, name);
      const r = await s.call("POST", "/api/workflows", { target });
      expect([r.status, r.body.name]).toEqual([201, name]);
      const run = await submit(s, name, "go");
      expect((await runIn(s, run, ["completed"])).output).toBe(`${name} ran`);
      // zod, which the docs' models use, resolves the same way: the action's model works
      const misfit = await s.call("POST", `/api/plugins/${name}/actions/note`, { input: {} });
      expect(misfit.body.errors[0].loc).toEqual(["body", "input", "text"]);
    }
  });
});
