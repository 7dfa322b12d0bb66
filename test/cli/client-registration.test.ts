// register, reload and remove against a real server: workflow files are written into the
// server's configuration folder, so targets are relative to it as the server resolves them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { writeWorkflow } from "../support/workflow-files.ts";
import { at } from "./client-kit.ts";

let server: TestServer;
let ym: ReturnType<typeof at>;

beforeAll(async () => {
  server = await startTestServer();
  ym = at(server.url);
});
afterAll(() => server.close());

const oneNode = (name: string, value: string) => `import { workflow } from "YARDMASTER";
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function only() {
  return "${value}";
});
`;

async function outputOf(workflow: string): Promise<unknown> {
  const result = await ym("submit", workflow, "--title", "t", "--wait", "--json");
  expect(result.code).toBe(0);
  return JSON.parse(result.out).output;
}

describe("yardmaster register", () => {
  it("registers a target; the workflow is listed and runs", async () => {
    writeWorkflow(server.dir, "flows/alpha.ts", oneNode("alpha", "one"));
    const result = await ym("register", "flows/alpha.ts:alpha");
    expect(result).toMatchObject({ code: 0, out: "Registered workflow alpha on pool default." });
    expect((await ym("workflows")).out).toMatch(
      /^alpha +only +1 +default +\d\/4 +flows\/alpha\.ts:alpha$/m,
    );
    expect(await outputOf("alpha")).toBe("one");
  });

  it("exits 1 with the API's code for a taken name, a missing pool and a target that fails", async () => {
    writeWorkflow(server.dir, "flows/beta.ts", oneNode("beta", "b"));
    const taken = await ym("register", "flows/alpha.ts:alpha");
    expect(taken.code).toBe(1);
    expect(taken.err).toMatch(/^yardmaster register: .+ \[409 conflict\]$/);
    const pool = await ym("register", "flows/beta.ts:beta", "--pool", "nope");
    expect(pool.err).toContain("[422 unknown_pool]");
    const broken = await ym("register", "flows/missing.ts:gone");
    expect(broken.code).toBe(1);
    expect(broken.err).toMatch(/\[422 workflow_load_failed, stage import\]$/);
  });

  it("--persist writes the configuration row and says where; --json prints the workflow", async () => {
    writeWorkflow(server.dir, "flows/gamma.ts", oneNode("gamma", "g"));
    const result = await ym("register", "flows/gamma.ts:gamma", "--persist");
    expect(result.lines).toEqual([
      "Registered workflow gamma on pool default.",
      `Configuration file updated: ${server.configFile}`,
    ]);
    expect(readFileSync(server.configFile, "utf8")).toContain("[workflows.gamma]");
    writeWorkflow(server.dir, "flows/delta.ts", oneNode("delta", "d"));
    const json = JSON.parse((await ym("register", "flows/delta.ts:delta", "--json")).out);
    expect(json).toMatchObject({ name: "delta", start: "only", target: "flows/delta.ts:delta" });
  });
});

describe("yardmaster reload and remove", () => {
  it("reloads a workflow from its file; the next run uses the new body", async () => {
    writeWorkflow(server.dir, "flows/alpha.ts", oneNode("alpha", "two"));
    const result = await ym("reload", "alpha");
    expect(result.out).toBe("Reloaded workflow alpha from flows/alpha.ts:alpha on pool default.");
    expect(await outputOf("alpha")).toBe("two");
    const json = JSON.parse(
      (await ym("reload", "alpha", "--target", "flows/alpha.ts:alpha", "--json")).out,
    );
    expect(json).toMatchObject({ name: "alpha", pool: "default" });
    const unknown = await ym("reload", "nosuch");
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("[404 unknown_workflow]");
  });

  it("removes a workflow; its runs stay listed as unregistered", async () => {
    const result = await ym("remove", "alpha");
    expect(result).toMatchObject({ code: 0, out: "Removed workflow alpha. Its runs stay listed." });
    expect((await ym("workflows")).out).not.toMatch(/^alpha /m);
    expect((await ym("runs", "--workflow", "alpha")).out).toContain("alpha (unregistered)");
    expect((await ym("remove", "alpha")).err).toContain("[404 unknown_workflow]");
  });

  it("remove --persist drops the configuration row; --json prints the API's answer", async () => {
    const result = await ym("remove", "gamma", "--persist", "--json");
    expect(JSON.parse(result.out)).toEqual({ workflow: "gamma", task_ids: [] });
    expect(readFileSync(server.configFile, "utf8")).not.toContain("[workflows.gamma]");
  });
});

describe("a server failure", () => {
  it("exits 3 when the server answers 5xx (persist_failed: the row cannot be written)", async () => {
    writeWorkflow(server.dir, "flows/eps.ts", oneNode("eps", "e"));
    // A folder where the configuration file was: the server cannot rewrite it.
    const saved = readFileSync(server.configFile, "utf8");
    rmSync(server.configFile);
    mkdirSync(server.configFile);
    try {
      const result = await ym("register", "flows/eps.ts:eps", "--persist");
      expect(result.code).toBe(3);
      expect(result.err).toMatch(/^yardmaster register: .+ \[500 persist_failed\]$/);
    } finally {
      rmSync(server.configFile, { recursive: true });
      writeFileSync(server.configFile, saved);
    }
  });
});
