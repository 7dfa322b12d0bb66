// A run's input through a real `yardmaster serve`: submitted with the run, checked against the
// start node's schema (422 with errors under body.input), shown in the run and, as a JSON Schema,
// in the workflow's view; a submit without input answers as it always did.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Served, serve, serverDir, stop } from "../support/serve.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";

const FLOWS = `import { z } from "zod";
import { workflow } from "yardmaster";

// The start node hands on what it received, so the run's output is its payload.
export const typed = workflow("typed");
typed.node(
  { start: true, input: z.object({ repo: z.string(), depth: z.int().min(1).default(3) }) },
  async function intake({}, payload) {
    return payload;
  },
);

export const plain = workflow("plain");
plain.node({ start: true }, async function intake({}, payload) {
  return payload;
});
`;

let srv: Served;
const dir = serverDir("input-");
beforeAll(async () => {
  writeFileSync(join(dir, "flows.ts"), FLOWS);
  const toml = [
    "[pools.default]",
    "capacity = 2",
    "",
    "[workflows.typed]",
    'target = "flows.ts:typed"',
    "",
    "[workflows.plain]",
    'target = "flows.ts:plain"',
    "",
  ].join("\n");
  srv = await serve({ dir, toml, store: testStoreUrl(dir, "s.db"), args: ["--port", "0"] });
}, 40_000);
afterAll(async () => {
  await stop(srv);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

async function completed(runId: string) {
  return eventually(async () => {
    const run = (await srv.call("GET", `/api/runs/${runId}`)).body;
    return run.status === "completed" ? run : undefined;
  }, `run ${runId} completed`);
}

describe("run input over HTTP", () => {
  it("hands the input to the start node and shows it in the run", async () => {
    const input = { repo: "acme/api", extra: ["kept"] };
    const created = await srv.call("POST", "/api/workflows/plain/runs", { title: "t", input });
    expect(created.status).toBe(201);
    const run = await completed(created.body.run_id);
    expect(run.input).toStrictEqual(input);
    expect(run.output).toStrictEqual({ title: "t", description: "", input });
  });

  it("checks the input against the start node's schema: 422 validation with errors", async () => {
    const bad = await srv.call("POST", "/api/workflows/typed/runs", {
      title: "t",
      input: { depth: 0 },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.code).toBe("validation");
    const locs = bad.body.errors.map((e: { loc: unknown[] }) => e.loc);
    expect(locs).toEqual(
      expect.arrayContaining([
        ["body", "input", "repo"],
        ["body", "input", "depth"],
      ]),
    );
    const missing = await srv.call("POST", "/api/workflows/typed/runs", { title: "t" });
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].loc).toEqual(["body", "input"]);

    const good = await srv.call("POST", "/api/workflows/typed/runs", {
      title: "t",
      input: { repo: "x" },
    });
    expect(good.status).toBe(201);
    const run = await completed(good.body.run_id);
    expect(run.input).toStrictEqual({ repo: "x", depth: 3 });
    expect(run.output.input).toStrictEqual({ repo: "x", depth: 3 });
  });

  it("shows the input's JSON Schema in the workflow views", async () => {
    const one = (await srv.call("GET", "/api/workflows/typed")).body;
    expect(one.input_schema).toMatchObject({
      type: "object",
      properties: { repo: { type: "string" }, depth: { type: "integer", default: 3 } },
      required: ["repo"],
    });
    const all = (await srv.call("GET", "/api/workflows")).body;
    const byName = Object.fromEntries(all.map((w: { name: string }) => [w.name, w]));
    expect(byName.typed.input_schema).toStrictEqual(one.input_schema);
    expect("input_schema" in byName.plain).toBe(false);
  });

  it("answers a submit without input exactly as before", async () => {
    const created = await srv.call("POST", "/api/workflows/plain/runs", { title: "old" });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(["run_id"]);
    const run = await completed(created.body.run_id);
    expect("input" in run).toBe(false);
    expect(run.output).toStrictEqual({ title: "old", description: "" });
  });
});
