// The workflows screens in a browser: list, graph, source with node lines, and the register /
// remove / reload dialogs, including a load failure shown with its stage and detail.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { FLOWS, startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot } from "../support/ui-console.ts";

let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  s = await startTestServer(consoleToml());
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe("the workflows screens", () => {
  it("lists workflows and shows one's graph and source with node lines", async () => {
    const page = await openConsole(browser, s, "/workflows");
    await page.waitForSelector("tr[data-workflow=fan]");
    await page.click("tr[data-workflow=fan] a");
    await page.waitForSelector(".gnode[data-node=split]");
    expect(await page.locator(".gnode").count()).toBe(3);
    await page.click("[data-tab=source]");
    await page.waitForSelector(".code-line.node-line:has-text('gather')");
    const source = (await s.call("GET", "/api/workflows/fan/source")).body;
    await page.waitForSelector(`.code-line.node-line[data-line="${source.nodes.gather.line}"]`);
    await shot(page, "workflow-source");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows a load failure with its stage and detail where the target was typed", async () => {
    const page = await openConsole(browser, s, "/workflows");
    await page.click("button:has-text('Register workflow')");
    await page.fill("dialog input[name=target]", "nowhere/missing.ts:flow");
    await page.click("dialog button[type=submit]");
    const note = page.locator("dialog [data-code=workflow_load_failed]");
    await note.waitFor();
    expect(await note.textContent()).toContain("import");
    expect(await note.textContent()).toContain("nowhere/missing.ts");
    await page.close();
  }, 60_000);

  it("shows a registration failure once, in the dialog: no toast repeats it", async () => {
    const page = await openConsole(browser, s, "/workflows");
    await page.click("button:has-text('Register workflow')");
    await page.fill("dialog input[name=target]", "/nowhere/missing.ts:flow");
    await page.click("dialog button[type=submit]");
    const note = page.locator("dialog [data-code=workflow_load_failed]");
    await note.waitFor();
    expect(await page.locator("dialog[open]").count()).toBe(1);
    // Its sentence is said once: the detail box does not repeat the headline.
    const head = (await note.locator(".error-head span").textContent())!;
    const detail = await note.locator(".error-detail").allTextContents();
    expect(detail.filter((d) => head.includes(d.trim()))).toEqual([]);
    // Submitting again does not pile anything up either.
    await page.click("dialog button[type=submit]");
    await page.waitForTimeout(500);
    expect(await page.locator(".toast-error").count()).toBe(0);
    expect(await page.locator("dialog [data-code=workflow_load_failed]").count()).toBe(1);
    await shot(page, "register-failure-once");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("removes a workflow, registers it again, and reloads it", async () => {
    const page = await openConsole(browser, s, "/workflows/fan");
    await page.waitForSelector("h1:has-text('fan')");
    const requests: string[] = [];
    page.on("request", (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await page.click("button:has-text('Remove')");
    await page.click("dialog button:has-text('Remove workflow')");
    await page.waitForSelector("h1:has-text('Workflows')");
    expect((await s.call("GET", "/api/workflows/fan")).status).toBe(404);
    await page.waitForSelector("tr[data-workflow=fan]", { state: "detached" });
    // The page of the removed workflow is left, not refetched into a 404 (the stream's
    // workflow.removed comes after the answer to the DELETE: give its refetches time).
    await page.waitForTimeout(500);
    const after = requests.slice(requests.indexOf("DELETE /api/workflows/fan"));
    expect(after[0]).toBe("DELETE /api/workflows/fan");
    expect(after.filter((r) => r.startsWith("GET /api/workflows/fan"))).toEqual([]);
    await page.click("button:has-text('Register workflow')");
    await page.fill("dialog input[name=target]", `${FLOWS}:fan`);
    await page.click("dialog button[type=submit]");
    await page.waitForSelector("h1:has-text('fan')");
    expect((await s.call("GET", "/api/workflows/fan")).status).toBe(200);
    await page.click("button:has-text('Reload')");
    await page.click("dialog button[type=submit]");
    await page.waitForSelector(".toast:has-text('Reloaded fan')");
    await page.close();
  }, 60_000);
});
