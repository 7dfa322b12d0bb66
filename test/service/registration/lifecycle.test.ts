// Hot registration over a real server: POST registers (201, event), every refusal the spec
// lists with its code and extras, PUT reloads the file from disk, DELETE unregisters, and the
// source endpoint shows the module with node lines.
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTarget } from "../../../src/loading/index.ts";
import { defaultToml, startTestServer, type TestServer } from "../../support/server-harness.ts";
import { runIn, storedEvents, submit, writeWorkflow } from "../../support/workflow-files.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(defaultToml("[pools.side]\ncapacity = 1\n"));
});
afterAll(async () => {
  await s?.close();
});

const simple = (name: string, value: string) => `import { workflow } from "YARDMASTER";
export const ${name} = workflow("${name}");
/** Starts and ends. */
${name}.node({ start: true }, async function only() {
  return "${value}";
});
`;

describe("POST /api/workflows", () => {
  it("registers a workflow under its own name, on the default pool, with an event", async () => {
    writeWorkflow(s.dir, "flows/alpha.ts", simple("alpha", "one"));
    const r = await s.call("POST", "/api/workflows", { target: "flows/alpha.ts:alpha" });
    expect(r.status).toBe(201);
    expect(r.headers.get("x-service-persisted")).toBeNull();
    expect(r.body).toMatchObject({
      name: "alpha",
      start: "only",
      pool: "default",
      capacity: 4,
      target: "flows/alpha.ts:alpha",
      plugin: { actions: [], panels: [] },
    });
    expect(r.body.nodes.only).toMatchObject({
      retries: null,
      priority: null,
      description: "Starts and ends.",
    });
    expect((await s.call("GET", "/api/workflows/alpha")).body).toEqual(r.body);
    const events = await storedEvents(s, "workflow.registered");
    expect(events.at(-1)).toMatchObject({
      run_id: null,
      data: { workflow: "alpha", pool: "default", target: "flows/alpha.ts:alpha" },
    });
    const run = await submit(s, "alpha", "go");
    expect((await runIn(s, run, ["completed"])).output).toBe("one");
  });

  it("binds the named pool, and refuses a pool the engine lacks, naming the pools", async () => {
    writeWorkflow(s.dir, "flows/beta.ts", simple("beta", "b"));
    const bad = await s.call("POST", "/api/workflows", {
      target: "flows/beta.ts:beta",
      pool: "nope",
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: "unknown_pool", pools: ["default", "side"] });
    const r = await s.call("POST", "/api/workflows", {
      target: "flows/beta.ts:beta",
      pool: "side",
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ pool: "side", capacity: 1 });
  });

  it("answers 409 conflict when the name is already registered", async () => {
    const r = await s.call("POST", "/api/workflows", { target: "flows/alpha.ts:alpha" });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("conflict");
  });

  it("answers workflow_load_failed with the stage where loading stopped", async () => {
    writeWorkflow(s.dir, "flows/broken.ts", "export const x = ;\n");
    writeWorkflow(
      s.dir,
      "flows/loop.ts",
      `import { workflow } from "YARDMASTER";
export const loop = workflow("loop");
loop.node(async function a({ b }) { return b; });
`,
    );
    writeWorkflow(
      s.dir,
      "flows/plugged.ts",
      `import { workflow } from "YARDMASTER";
export const plugged = workflow("plugged");
plugged.node({ start: true }, async function only() { return 1; });
plugged.panel({ name: "p", slot: "run", placement: "card", kind: "markdown", scope: "run" });
`,
    );
    writeWorkflow(
      s.dir,
      "flows/badinput.ts",
      `import { workflow } from "YARDMASTER";
export const badinput = workflow("badinput");
badinput.node({ start: true, input: { type: "nope" } }, async function only() { return 1; });
`,
    );
    writeWorkflow(
      s.dir,
      "flows/lateinput.ts",
      `import { workflow } from "YARDMASTER";
export const lateinput = workflow("lateinput");
lateinput.node({ start: true }, async function a({ b }) { return b; });
lateinput.node({ input: { type: "object" } }, async function b() { return 1; });
`,
    );
    writeWorkflow(s.dir, "flows/reserved.ts", simple("_builtin", "x"));
    writeWorkflow(s.dir, "flows/verb.ts", simple("runs", "x"));
    const cases: Array<[string, string, RegExp]> = [
      ["no-colon-here", "target", /not of the form/],
      ["flows/missing.ts:x", "import", /file not found/],
      ["flows/broken.ts:x", "import", /./],
      ["flows/alpha.ts:nothing", "attribute", /has no export "nothing"/],
      ["flows/loop.ts:loop", "finalize", /start/],
      ["flows/plugged.ts:plugged", "plugins", /panel "p": "data" is required/],
      ["flows/badinput.ts:badinput", "plugins", /start node "only": input is not a usable/],
      ["flows/lateinput.ts:lateinput", "finalize", /belongs on the start node only/],
      ["flows/reserved.ts:_builtin", "register", /reserved/],
      ["flows/verb.ts:runs", "register", /reserved verb/],
    ];
    for (const [target, stage, detail] of cases) {
      const r = await s.call("POST", "/api/workflows", { target });
      expect(r.status, target).toBe(422);
      expect(r.body, target).toMatchObject({ code: "workflow_load_failed", target, stage });
      expect(r.body.detail, target).toMatch(detail);
    }
    expect((await s.call("GET", "/api/workflows/plugged")).status).toBe(404);
  });

  it("registers any other valid identifier: a leading underscore, a verb in another case", async () => {
    for (const name of ["_private", "Runs"]) {
      writeWorkflow(s.dir, `flows/${name}.ts`, simple(name, name));
      const r = await s.call("POST", "/api/workflows", { target: `flows/${name}.ts:${name}` });
      expect([r.status, r.body.name], name).toEqual([201, name]);
      const run = await submit(s, name, "t");
      await runIn(s, run, ["completed"]);
      expect((await s.call("GET", `/api/runs/${run}`)).body.output).toBe(name);
    }
  });

  it("refuses a body without a target as a validation failure", async () => {
    const r = await s.call("POST", "/api/workflows", { pool: "default" });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("validation");
    expect(r.body.errors[0].loc).toEqual(["body", "target"]);
  });
});

describe("PUT /api/workflows/{name}", () => {
  it("re-reads the recorded target from disk and announces the replacement", async () => {
    writeWorkflow(s.dir, "flows/gamma.ts", simple("gamma", "old"));
    expect(
      (await s.call("POST", "/api/workflows", { target: "flows/gamma.ts:gamma" })).status,
    ).toBe(201);
    writeWorkflow(s.dir, "flows/gamma.ts", simple("gamma", "new"));
    const r = await s.call("PUT", "/api/workflows/gamma", {});
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      name: "gamma",
      target: "flows/gamma.ts:gamma",
      pool: "default",
    });
    expect((await storedEvents(s, "workflow.replaced")).at(-1)?.data).toEqual({
      workflow: "gamma",
      pool: "default",
      target: "flows/gamma.ts:gamma",
    });
    const run = await submit(s, "gamma", "go");
    expect((await runIn(s, run, ["completed"])).output).toBe("new");
    // every field of ReloadWorkflow is optional: no body at all reloads as registered too
    const bare = await s.call("PUT", "/api/workflows/gamma");
    expect([bare.status, bare.body.target]).toEqual([200, "flows/gamma.ts:gamma"]);
  });

  it("loads a new target and moves an idle workflow to another pool", async () => {
    writeWorkflow(s.dir, "flows/gamma2.ts", simple("gamma", "moved"));
    const r = await s.call("PUT", "/api/workflows/gamma", {
      target: "flows/gamma2.ts:gamma",
      pool: "side",
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ target: "flows/gamma2.ts:gamma", pool: "side", capacity: 1 });
  });

  it("refuses a target that now defines another workflow, an unknown pool, and a bad file", async () => {
    const renamed = await s.call("PUT", "/api/workflows/gamma", { target: "flows/alpha.ts:alpha" });
    expect(renamed.status).toBe(409);
    expect(renamed.body.code).toBe("conflict");
    // another workflow is a conflict before its own problems (here a reserved name) are judged
    writeWorkflow(s.dir, "flows/reserved.ts", simple("runs", "r"));
    const reserved = await s.call("PUT", "/api/workflows/gamma", {
      target: "flows/reserved.ts:runs",
    });
    expect([reserved.status, reserved.body.code]).toEqual([409, "conflict"]);
    // ... and before its graph is checked: a broken other workflow is still a conflict
    writeWorkflow(
      s.dir,
      "flows/nostart.ts",
      `import { workflow } from "YARDMASTER";
export const nostart = workflow("nostart");
nostart.node(async function lonely() { return 1; });
`,
    );
    const broken = await s.call("PUT", "/api/workflows/gamma", {
      target: "flows/nostart.ts:nostart",
    });
    expect([broken.status, broken.body]).toMatchObject([
      409,
      { code: "conflict", workflow: "nostart" },
    ]);
    const pool = await s.call("PUT", "/api/workflows/gamma", { pool: "nope" });
    expect(pool.body).toMatchObject({ code: "unknown_pool", pools: ["default", "side"] });
    const file = await s.call("PUT", "/api/workflows/gamma", { target: "flows/broken.ts:gamma" });
    expect(file.body).toMatchObject({ code: "workflow_load_failed", stage: "import" });
    expect((await s.call("GET", "/api/workflows/gamma")).body.target).toBe("flows/gamma2.ts:gamma");
  });

  it("answers stage target when no target is sent and none is recorded", async () => {
    const file = writeWorkflow(s.dir, "flows/delta.ts", simple("delta", "d"));
    const loaded = await loadTarget(`${file}:delta`, s.dir);
    s.engine.register({
      name: "delta",
      graph: loaded.graph,
      workflow: loaded.workflow,
      pool: "default",
      target: null,
      file: loaded.file,
      loaded,
    });
    const r = await s.call("PUT", "/api/workflows/delta", {});
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: "workflow_load_failed", stage: "target" });
  });

  it("answers 404 unknown_workflow for a name that is not registered", async () => {
    const r = await s.call("PUT", "/api/workflows/nobody", {});
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("unknown_workflow");
  });
});

describe("GET /api/workflows/{name}/source", () => {
  it("shows the module text and the line of each node", async () => {
    const r = await s.call("GET", "/api/workflows/alpha/source");
    expect(r.status).toBe(200);
    expect(r.body.file).toBe(path.join(s.dir, "flows/alpha.ts"));
    expect(r.body.source).toContain('workflow("alpha")');
    expect(r.body.nodes).toEqual({ only: { line: 4 } });
  });

  it("is 404 not_found once the file is gone, and unknown_workflow for no workflow", async () => {
    const file = writeWorkflow(s.dir, "flows/epsilon.ts", simple("epsilon", "e"));
    expect(
      (await s.call("POST", "/api/workflows", { target: "flows/epsilon.ts:epsilon" })).status,
    ).toBe(201);
    rmSync(file);
    const gone = await s.call("GET", "/api/workflows/epsilon/source");
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
    const none = await s.call("GET", "/api/workflows/nobody/source");
    expect(none.body.code).toBe("unknown_workflow");
    writeFileSync(file, "");
  });
});

describe("DELETE /api/workflows/{name}", () => {
  it("unregisters: runs stay listed as unregistered, the event names no attempts", async () => {
    const run = await submit(s, "alpha", "before removal");
    await runIn(s, run, ["completed"]);
    const r = await s.call("DELETE", "/api/workflows/alpha");
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workflow: "alpha", task_ids: [] });
    expect(r.headers.get("x-service-persisted")).toBeNull();
    expect((await s.call("GET", "/api/workflows/alpha")).status).toBe(404);
    expect((await s.call("GET", `/api/runs/${run}`)).body).toMatchObject({
      status: "completed",
      unregistered: true,
    });
    expect((await storedEvents(s, "workflow.unregistered")).at(-1)).toMatchObject({
      run_id: null,
      data: { workflow: "alpha", task_ids: [] },
    });
    const again = await s.call("DELETE", "/api/workflows/alpha");
    expect(again.status).toBe(404);
    expect(again.body.code).toBe("unknown_workflow");
  });
});
