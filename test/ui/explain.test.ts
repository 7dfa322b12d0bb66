// The task drawer in a browser: "Why is this not running?" for a task waiting on a person
// (refreshable), an agent's rejected submission beside the accepted one and as a line of its
// transcript, a failed attempt's stack folded under its error; a workflow's failures grouped.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

const AGENT_FLOWS = join(import.meta.dirname, "..", "fixtures", "agents", "flows.ts");

let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  s = await startTestServer(consoleToml());
  browser = await launchBrowser();
  const r = await s.call("POST", "/api/workflows", { target: `${AGENT_FLOWS}:agentic` });
  expect(r.status).toBe(201);
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const firstTask = (id: string, status: string) =>
  eventually(async () => {
    const run = (await s.call("GET", `/api/runs/${id}`)).body;
    return run.tasks?.[0]?.status === status ? run.tasks[0] : undefined;
  }, `the first task ${status}`);

describe("the task drawer", () => {
  it("says why a task is not running, and refreshes it", async () => {
    const id = await submitRun(s, "approval", "Budget");
    const task = await firstTask(id, "waiting");
    const [request] = (await s.call("GET", `/api/runs/${id}/requests`)).body;
    const page = await openConsole(browser, s, `/runs/${id}?task=${task.id}`);
    const section = page.locator(".drawer section.explain");
    await section.locator("[data-reason=waiting_on_person]").waitFor();
    expect(await section.textContent()).toContain(`#${request.id}`);
    // Paused meanwhile: the refresh button asks again.
    await s.call("POST", `/api/runs/${id}/pause`);
    await section.locator("button:has-text('Refresh')").click();
    await section.locator("[data-reason=run_paused]").waitFor();
    await shot(page, "explain");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows a rejected submission beside the accepted one and in the transcript", async () => {
    const script = { turns: [[{ submit: { answer: 3 } }], [{ submit: { answer: "fixed" } }]] };
    const id = await submitRun(s, "agentic", "repair", JSON.stringify({ script, zod: true }));
    const task = await firstTask(id, "done");
    const rejections = (await s.call("GET", `/api/tasks/${task.id}/rejections`)).body;
    expect(rejections).toHaveLength(1);
    expect(rejections[0].errors[0]).toMatchObject({ loc: ["body", "answer"] });
    const page = await openConsole(browser, s, `/runs/${id}?task=${task.id}`);
    // A finished task has nothing to explain.
    await page.locator(".drawer [data-tab=submissions]:has-text('1 rejected')").click();
    const rejected = page.locator(".drawer .submission-rejected");
    await rejected.waitFor();
    expect(await rejected.textContent()).toContain("rejected: 1 validation error");
    expect(await rejected.textContent()).toContain("answer");
    expect(await page.locator(".drawer .submissions > li").count()).toBe(2);
    expect(await page.locator(".drawer section.explain").count()).toBe(0);
    await page.click(".drawer [data-tab=transcript]");
    const line = page.locator(".chunk[data-chunk=rejected]");
    await line.waitFor();
    expect(await line.textContent()).toContain("1 validation error");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("folds a failed attempt's stack under its error; the workflow groups its failures", async () => {
    const id = await submitRun(s, "chain", "fail");
    const failed = await firstTask(id, "dead_letter");
    await submitRun(s, "chain", "fail");
    const page = await openConsole(browser, s, `/runs/${id}?task=${failed.id}`);
    const stack = page.locator(".drawer details.error-stack");
    await stack.waitFor();
    expect(await stack.getAttribute("open")).toBeNull();
    expect(await stack.locator("pre").isVisible()).toBe(false);
    await stack.locator("summary").click();
    expect(await stack.locator("pre").textContent()).toContain("NonRetryable: asked to fail");
    expect(await stack.locator("pre").textContent()).toContain("flows.ts");
    await page.goto(`${s.url}/workflows/chain`);
    const group = page.locator(".failures-card .failure-group");
    await group.first().waitFor();
    expect(await group.first().getAttribute("data-count")).toBe("2");
    expect(await group.first().textContent()).toContain("NonRetryable: asked to fail");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
