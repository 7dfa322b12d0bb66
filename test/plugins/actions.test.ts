// POST /api/plugins/{wf}/actions/{name}: input checked against the action's model (zod or JSON
// Schema; 422 naming each field), scope resolved and checked (ids required by the scope, unknown
// run/task 404, a run of another workflow 404, an unknown node), the handler's return as JSON,
// `plugin_error` when it throws, and plugin events only under the workflow's own name.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { runIn, submit, writeWorkflow } from "../support/workflow-files.ts";

const SHOWCASE = `${fileURLToPath(new URL("../../examples/showcase.ts", import.meta.url))}:showcase`;

const ACTS = `import { workflow } from "YARDMASTER";
export const acts = workflow("acts");
acts.node({ start: true }, async function first({ second }) { return second; });
acts.node(async function second() { return "done"; });
const echoInput = {
  type: "object",
  required: ["n"],
  properties: {
    n: { type: "integer", minimum: 1 },
    tags: { type: "array", items: { type: "string" } },
    mode: { type: "string", default: "plain" },
  },
};
acts.action({ name: "echo", title: "Echo", scope: "global", input: echoInput,
  handler: async (input: unknown, scope: unknown) => ({ input, scope }) });
acts.action({ name: "where", title: "Where", scope: "task", handler: async (_i: unknown, scope: unknown) => scope });
acts.action({ name: "pick", title: "Pick", scope: "node", handler: async (_i: unknown, scope: unknown) => scope });
acts.action({ name: "ignore", title: "Ignore", scope: "workflow", handler: async (input: unknown) => ({ input }) });
acts.action({ name: "boom", title: "Boom", scope: "run", confirm: true,
  handler: async () => { throw new Error("kaboom"); } });
acts.action({ name: "big", title: "Big", scope: "global", handler: async () => ({ n: 10n }) });
acts.action({ name: "nothing", title: "Nothing", scope: "global", handler: async () => undefined });
acts.action({ name: "shout", title: "Shout", scope: "run",
  handler: async (_i: unknown, _s: unknown, ctx: any) => { await ctx.publish("other.thing", { x: 1 }); return "sent"; } });
`;

let s: TestServer;
let actsRun: string;
let chainRun: string;
let showcaseRun: string;
beforeAll(async () => {
  s = await startTestServer(defaultToml());
  writeWorkflow(s.dir, "acts.ts", ACTS);
  for (const target of ["acts.ts:acts", SHOWCASE]) {
    const r = await s.call("POST", "/api/workflows", { target });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
  }
  actsRun = await submit(s, "acts", "one");
  chainRun = await submit(s, "chain", "two");
  showcaseRun = await submit(s, "showcase", "alpha beta gamma");
  for (const run of [actsRun, chainRun, showcaseRun]) await runIn(s, run, ["completed"]);
});
afterAll(async () => {
  await s?.close();
});

const call = (wf: string, action: string, body: unknown) =>
  s.call("POST", `/api/plugins/${wf}/actions/${action}`, body);

describe("input against the action's model", () => {
  it("zod: a misfit is 422 validation naming each field under body.input", async () => {
    const r = await call("showcase", "annotate", {
      input: { severity: "loud" },
      scope: { run_id: showcaseRun },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("validation");
    const byLoc = Object.fromEntries(r.body.errors.map((e: any) => [e.loc.join("."), e.type]));
    expect(byLoc).toEqual({ "body.input.note": "missing", "body.input.severity": "invalid_value" });
  });

  it("zod: a fit runs the handler with the parsed input (defaults applied)", async () => {
    const r = await call("showcase", "annotate", {
      input: { note: "looks fine" },
      scope: { run_id: showcaseRun },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, log_id: expect.any(Number) });
    const log = (await s.call("GET", `/api/runs/${showcaseRun}/log`)).body;
    expect(log.at(-1)).toMatchObject({
      id: r.body.log_id,
      author: "user",
      text: "[info] looks fine",
    });
    const events = (await s.call("GET", `/api/runs/${showcaseRun}/events?limit=1000`)).body;
    expect(events.at(-1)).toMatchObject({
      name: "plugin.showcase.annotated",
      run_id: showcaseRun,
      data: { log_id: r.body.log_id, severity: "info" },
    });
  });

  it("JSON Schema: misfits name each field; a fit reaches the handler with defaults", async () => {
    const bad = await call("acts", "echo", { input: { n: 0, tags: ["a", 2] } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc)).toEqual([
      ["body", "input", "n"],
      ["body", "input", "tags", 1],
    ]);
    const missing = await call("acts", "echo", { input: {} });
    expect(missing.body.errors).toEqual([
      { loc: ["body", "input", "n"], msg: "Field required", type: "missing" },
    ]);
    const ok = await call("acts", "echo", { input: { n: 2 } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({
      input: { n: 2, mode: "plain" },
      scope: { kind: "global", workflow: "acts", run_id: null, task_id: null, node: null },
    });
  });

  it("an action without a model ignores any input", async () => {
    const r = await call("acts", "ignore", { input: { anything: [1, 2] } });
    expect(r.body).toEqual({ input: null });
    // every field of ActionCall is optional, so a call may send no body at all
    const bare = await s.call("POST", "/api/plugins/acts/actions/ignore");
    expect([bare.status, bare.body]).toEqual([200, { input: null }]);
  });
});

describe("scope", () => {
  it("refuses a call that lacks the id its scope needs", async () => {
    for (const [action, field] of [
      ["boom", "run_id"],
      ["where", "task_id"],
      ["pick", "node"],
    ]) {
      const r = await call("acts", action, { scope: {} });
      expect(r.status, action).toBe(422);
      expect(r.body.errors, action).toEqual([
        { loc: ["body", "scope", field], msg: "Field required", type: "missing" },
      ]);
    }
  });

  it("404s an unknown run or task, and a run of another workflow", async () => {
    const run = await call("acts", "boom", { scope: { run_id: "01JNOSUCHRUN0000000000000" } });
    expect([run.status, run.body.code]).toEqual([404, "not_found"]);
    const task = await call("acts", "where", { scope: { task_id: 999999 } });
    expect([task.status, task.body.code]).toEqual([404, "not_found"]);
    const foreign = await call("acts", "boom", { scope: { run_id: chainRun } });
    expect([foreign.status, foreign.body.code]).toEqual([404, "not_found"]);
    const node = await call("acts", "pick", { scope: { node: "ghost" } });
    expect([node.status, node.body.code]).toEqual([404, "unknown_node"]);
  });

  it("resolves a task to its run and node, and checks a run id sent with it", async () => {
    const tasks = (await s.call("GET", `/api/runs/${actsRun}`)).body.tasks;
    const second = tasks.find((t: any) => t.node === "second");
    const r = await call("acts", "where", { scope: { task_id: second.id } });
    expect(r.body).toEqual({
      kind: "task",
      workflow: "acts",
      run_id: actsRun,
      task_id: second.id,
      node: "second",
    });
    const mismatch = await call("acts", "where", {
      scope: { task_id: second.id, run_id: chainRun },
    });
    expect(mismatch.status).toBe(422);
    const picked = await call("acts", "pick", { scope: { node: "first" } });
    expect(picked.body).toMatchObject({ kind: "node", node: "first", run_id: null });
  });
});

describe("handlers", () => {
  it("a throw is plugin_error with the handler's message", async () => {
    const r = await call("acts", "boom", { scope: { run_id: actsRun } });
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({
      code: "plugin_error",
      workflow: "acts",
      action: "boom",
      detail: "kaboom",
    });
    expect(r.body.error).toMatch(/kaboom/);
  });

  it("a return JSON cannot carry is plugin_error; undefined answers null", async () => {
    const big = await call("acts", "big", {});
    expect(big.status).toBe(500);
    expect(big.body.code).toBe("plugin_error");
    expect(big.body.detail).toMatch(/BigInt/);
    const nothing = await call("acts", "nothing", {});
    expect(nothing.status).toBe(200);
    expect(nothing.body).toBeNull();
  });

  it("publishes under its own workflow's name only", async () => {
    const r = await call("acts", "shout", { scope: { run_id: actsRun } });
    expect(r.body).toBe("sent");
    const events = (await s.call("GET", `/api/runs/${actsRun}/events?limit=1000`)).body;
    expect(events.at(-1)).toMatchObject({ name: "plugin.acts.other.thing", data: { x: 1 } });
  });

  it("404s an unknown workflow or action", async () => {
    const wf = await call("nobody", "x", {});
    expect([wf.status, wf.body.code]).toEqual([404, "unknown_workflow"]);
    const action = await call("acts", "nope", {});
    expect([action.status, action.body.code]).toEqual([404, "not_found"]);
    expect(action.body.actions).toContain("echo");
  });
});

describe("node bodies", () => {
  it("publish plugin.<workflow>.<name> tied to their run and task", async () => {
    const events = (await s.call("GET", `/api/runs/${showcaseRun}/events?limit=1000`)).body;
    const tasks = (await s.call("GET", `/api/runs/${showcaseRun}`)).body.tasks;
    const measured = events.find((e: any) => e.name === "plugin.showcase.measured");
    expect(measured).toMatchObject({
      run_id: showcaseRun,
      task_id: tasks.find((t: any) => t.node === "measure").id,
      data: { count: 3 },
    });
    expect(events.some((e: any) => e.name === "plugin.showcase.scored")).toBe(true);
  });
});
