// The New run dialog of a workflow that declares an input schema: a form generated from
// `input_schema`, whose value the run is submitted with; a workflow without one keeps the plain
// dialog and sends no input.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { serverDir } from "../support/serve.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { openConsole } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

const FLOW = `import { z } from "zod";
import { workflow } from "yardmaster";

export const deploy = workflow("deploy");
deploy.node(
  { start: true, input: z.object({ repo: z.string(), depth: z.int().min(1).default(3) }) },
  async function intake({}, payload) {
    return payload;
  },
);
`;

const dir = serverDir("ui-input-");
let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  writeFileSync(join(dir, "deploy.ts"), FLOW);
  const file = join(dir, "deploy.ts");
  s = await startTestServer(defaultToml(`[workflows.deploy]\ntarget = "${file}:deploy"\n`));
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function runTitled(workflow: string, title: string) {
  return eventually(async () => {
    const runs = (await s.call("GET", `/api/runs?workflow=${workflow}`)).body as any[];
    return runs.find((r) => r.title === title);
  }, `run ${title}`);
}

describe("the New run dialog", () => {
  it("shows a form from the workflow's input schema and submits the run with its value", async () => {
    const page = await openConsole(browser, s);
    await page.click("text=New run");
    await page.selectOption("dialog select[name=workflow]", "deploy");
    await page.waitForSelector("dialog [data-run-input] .schema-form");
    await page.fill("dialog input[name=title]", "with input");
    await page.fill("dialog .schema-form input[id$=repo]", "acme/api");
    await page.click("dialog .schema-form button[type=submit]");
    const run = await runTitled("deploy", "with input");
    const detail = await eventually(async () => {
      const d = (await s.call("GET", `/api/runs/${run.id}`)).body;
      return d.status === "completed" ? d : undefined;
    }, "completed");
    expect(detail.input).toStrictEqual({ repo: "acme/api", depth: 3 });
    expect(detail.output.input).toStrictEqual({ repo: "acme/api", depth: 3 });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("keeps the plain dialog, and no input, for a workflow without a schema", async () => {
    const page = await openConsole(browser, s);
    await page.click("text=New run");
    await page.selectOption("dialog select[name=workflow]", "chain");
    expect(await page.$("dialog .schema-form")).toBeNull();
    await page.fill("dialog input[name=title]", "no input");
    await page.click("dialog button[type=submit]");
    const run = await runTitled("chain", "no input");
    expect("input" in (await s.call("GET", `/api/runs/${run.id}`)).body).toBe(false);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
