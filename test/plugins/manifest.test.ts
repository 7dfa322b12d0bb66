// The plugin manifest: `_builtin` first, then workflows in registration order (kept across a
// replacement), each workflow's actions and panels as WorkflowOut.plugin lists them, and
// declarations refused at registration (stage "plugins") with a detail naming each one.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FLOWS, startTestServer, type TestServer } from "../support/server-harness.ts";
import { writeWorkflow } from "../support/workflow-files.ts";

const SHOWCASE = `${fileURLToPath(new URL("../../examples/showcase.ts", import.meta.url))}:showcase`;

let s: TestServer;
beforeAll(async () => {
  const rows = ["chain", "fan", "asker"].map((n) => `[workflows.${n}]\ntarget = "${FLOWS}:${n}"\n`);
  s = await startTestServer(`[server]\nhost = "127.0.0.1"\nport = 0\n\n${rows.join("\n")}`);
});
afterAll(async () => {
  await s?.close();
});

const simple = (name: string) => `import { workflow } from "YARDMASTER";
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function only() { return 1; });
`;

const manifestNames = async () =>
  (await s.call("GET", "/api/plugins")).body.map((e: { workflow: string }) => e.workflow);

describe("GET /api/plugins", () => {
  it("lists _builtin first, then the configured workflows in configuration order", async () => {
    expect(await manifestNames()).toEqual(["_builtin", "chain", "fan", "asker"]);
    const [builtin, chain] = (await s.call("GET", "/api/plugins")).body;
    expect(builtin.actions).toEqual([]);
    expect(builtin.assets).toEqual([]);
    expect(builtin.panels.map((p: any) => [p.name, p.kind, p.scope, p.source])).toEqual([
      ["output", "markdown", "run", "/api/plugins/_builtin/panels/output/data"],
      ["log", "log", "run", "/api/plugins/_builtin/panels/log/data"],
      ["transcript", "log", "task", "/api/plugins/_builtin/panels/transcript/data"],
    ]);
    expect(chain).toEqual({ workflow: "chain", actions: [], panels: [], assets: [] });
  });

  it("appends registrations in order; a replacement keeps its place, a re-registration goes last", async () => {
    writeWorkflow(s.dir, "zed.ts", simple("zed"));
    writeWorkflow(s.dir, "abe.ts", simple("abe"));
    expect((await s.call("POST", "/api/workflows", { target: "zed.ts:zed" })).status).toBe(201);
    expect((await s.call("POST", "/api/workflows", { target: "abe.ts:abe" })).status).toBe(201);
    expect(await manifestNames()).toEqual(["_builtin", "chain", "fan", "asker", "zed", "abe"]);
    expect((await s.call("PUT", "/api/workflows/zed", {})).status).toBe(200);
    expect(await manifestNames()).toEqual(["_builtin", "chain", "fan", "asker", "zed", "abe"]);
    expect((await s.call("DELETE", "/api/workflows/zed")).status).toBe(200);
    expect(await manifestNames()).toEqual(["_builtin", "chain", "fan", "asker", "abe"]);
    expect((await s.call("POST", "/api/workflows", { target: "zed.ts:zed" })).status).toBe(201);
    expect(await manifestNames()).toEqual(["_builtin", "chain", "fan", "asker", "abe", "zed"]);
  });

  it("shows the showcase's actions, panels and asset, as WorkflowOut.plugin does", async () => {
    const reg = await s.call("POST", "/api/workflows", { target: SHOWCASE });
    expect(reg.status).toBe(201);
    const entry = (await s.call("GET", "/api/plugins")).body.at(-1);
    expect(entry.workflow).toBe("showcase");
    expect({ actions: entry.actions, panels: entry.panels }).toEqual(reg.body.plugin);
    expect(entry.actions).toEqual([
      {
        name: "annotate",
        title: "Add a note",
        scope: "run",
        confirm: false,
        schema: expect.objectContaining({
          type: "object",
          required: ["note"],
          properties: expect.objectContaining({ note: { type: "string", minLength: 1 } }),
        }),
      },
    ]);
    const kinds = entry.panels.map((p: any) => p.kind);
    expect(kinds).toEqual([
      "markdown",
      "kv",
      "table",
      "log",
      "chart",
      "dashboard",
      "form",
      "custom",
    ]);
    const byName = Object.fromEntries(entry.panels.map((p: any) => [p.name, p]));
    expect(byName.summary).toEqual({
      name: "summary",
      slot: "run",
      placement: "card",
      kind: "markdown",
      scope: "run",
      source: "/api/plugins/showcase/panels/summary/data",
      node: null,
      element: null,
      refresh_on: ["run.*"],
    });
    expect(byName.annotate_form).toMatchObject({ kind: "form", source: "annotate" });
    expect(byName.viz).toMatchObject({
      kind: "custom",
      slot: "node",
      node: "score",
      scope: "task",
      element: "showcase-viz",
      source: null,
    });
    expect(entry.assets).toHaveLength(1);
    expect(entry.assets[0]).toMatch(
      /^\/plugins\/showcase\/assets\/showcase-viz\.js\?v=[0-9a-f]{12}$/,
    );
  });
});

/** A workflow `bad` with one extra declaration line. */
const declaring = (line: string) => `import { workflow } from "YARDMASTER";
export const bad = workflow("bad");
bad.node({ start: true }, async function only() { return 1; });
bad.action({ name: "ok", title: "OK", scope: "run", handler: async () => 1 });
${line}
`;

const panel = (extra: string) =>
  `bad.panel({ name: "p", slot: "run", placement: "card", scope: "run", ${extra} });`;

describe("declarations that do not validate (stage plugins)", () => {
  const cases: Array<[string, RegExp]> = [
    ['bad.action({ name: "a", title: "A", scope: "run" });', /action "a": "handler" is required/],
    [
      'bad.action({ name: "a", title: "A", scope: "team", handler: () => 1 });',
      /action "a": "scope" must be one of run, task, node, workflow, global/,
    ],
    [
      'bad.action({ name: "a", title: "A", scope: "run", hanlder: () => 1, handler: () => 1 });',
      /action "a": unknown option "hanlder"/,
    ],
    [
      'bad.action({ name: "a", title: "A", scope: "run", input: 3, handler: () => 1 });',
      /action "a": input must be a zod schema or a JSON Schema object/,
    ],
    [
      'bad.action({ name: "a", title: "A", scope: "run", input: { type: "nope" }, handler: () => 1 });',
      /action "a": input is not a usable JSON Schema/,
    ],
    [
      'bad.action({ name: "a b", title: "A", scope: "run", handler: () => 1 });',
      /action #2: "name" must match/,
    ],
    [
      'bad.action({ name: "ok", title: "Again", scope: "run", handler: () => 1 });',
      /action "ok": declared twice/,
    ],
    [panel('kind: "markdown"'), /panel "p": "data" is required/],
    [panel('kind: "markdown", data: () => "", action: "ok"'), /panel "p": "action" is not allowed/],
    [panel('kind: "tabel", data: () => ""'), /panel "p": "kind" must be one of/],
    [
      panel('kind: "form", action: "missing"'),
      /"action" names "missing", which this workflow does not declare/,
    ],
    [
      panel('kind: "kv", data: () => ({}), node: "ghost"'),
      /"node" names "ghost", which is not a node/,
    ],
    [panel('kind: "custom"'), /panel "p": "element" is required/],
    [panel('kind: "custom", element: "Viz"'), /"element" must be a custom element name/],
    [panel('kind: "custom", element: "x-viz", asset: "./none.js"'), /"asset" file not found/],
    [
      panel('kind: "custom", element: "x-viz", asset: "../outside.js"'),
      /must stay inside the workflow file's folder/,
    ],
    [panel('kind: "custom", element: "x-viz", asset: "./viz.css"'), /must be a JavaScript module/],
    [panel('kind: "kv", data: () => ({}), refresh_on: "run.*"'), /"refresh_on" must be an array/],
  ];

  it("refuses each with 422 workflow_load_failed, stage plugins, naming the declaration", async () => {
    for (const [i, [line, detail]] of cases.entries()) {
      writeWorkflow(s.dir, `bad/bad${i}.ts`, declaring(line));
      const r = await s.call("POST", "/api/workflows", { target: `bad/bad${i}.ts:bad` });
      expect(r.status, line).toBe(422);
      expect(r.body, line).toMatchObject({ code: "workflow_load_failed", stage: "plugins" });
      expect(r.body.detail, line).toMatch(detail);
    }
    expect((await s.call("GET", "/api/workflows/bad")).status).toBe(404);
  });

  it("lists every problem of a workflow at once", async () => {
    writeWorkflow(
      s.dir,
      "bad/many.ts",
      declaring(
        `${panel('kind: "markdown"')}\nbad.action({ name: "z", scope: "run", handler: 1 });`,
      ),
    );
    const r = await s.call("POST", "/api/workflows", { target: "bad/many.ts:bad" });
    expect(r.body.detail).toMatch(/panel "p": "data" is required/);
    expect(r.body.detail).toMatch(/action "z": "title" is required/);
    expect(r.body.detail).toMatch(/action "z": "handler" must be a function/);
  });
});
