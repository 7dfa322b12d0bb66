// The inbox in a browser: an options request answered with a button resumes its run; a form
// request is filled from its JSON Schema, with the validation message beside the field.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

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

const completed = (id: string) =>
  eventually(async () => {
    const run = (await s.call("GET", `/api/runs/${id}`)).body;
    return run.status === "completed" ? run : undefined;
  }, `run ${id} to complete`);

async function pendingRequest(runId: string) {
  return eventually(async () => {
    const list = (await s.call("GET", `/api/requests?pending=true&run=${runId}`)).body as any[];
    return list[0];
  }, "the request to open");
}

describe("the inbox", () => {
  it("answers an options request with a button, and the run resumes", async () => {
    const id = await submitRun(s, "asker", "ship it?");
    const request = await pendingRequest(id);
    const page = await openConsole(browser, s, "/inbox");
    const card = `[data-request-id="${request.id}"]`;
    await page.waitForSelector(`${card} button[data-option=go]`);
    expect(await page.textContent(card)).toContain("Proceed?");
    await shot(page, "inbox");
    await page.click(`${card} button[data-option=go]`);
    expect((await completed(id)).output).toBe("go");
    // The answered request leaves the inbox live.
    await page.waitForSelector(card, { state: "detached" });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("fills a form request from its JSON Schema, showing errors beside the field", async () => {
    const id = await submitRun(s, "approval", "new laptops");
    const request = await pendingRequest(id);
    const page = await openConsole(browser, s, "/inbox");
    const logged: string[] = [];
    page.on("console", (m) => {
      if (m.type() === "error") logged.push(m.text());
    });
    const card = `[data-request-id="${request.id}"]`;
    await page.waitForSelector(`${card} .schema-form`);
    await page.click(`${card} .schema-form button[type=submit]`);
    await page.waitForSelector(`${card} .has-error .error-detail`);
    // The miss is shown beside its field; the console stays quiet about it.
    expect(logged.filter((text) => text.includes("Form validation failed"))).toEqual([]);
    await page.fill(`${card} input#root_approver`, "Dana");
    await page.fill(`${card} input#root_budget`, "1200");
    await page.click(`${card} .schema-form button[type=submit]`);
    expect((await completed(id)).output).toEqual({ approver: "Dana", budget: 1200 });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows the server's refusal beside the buttons when the request was answered elsewhere", async () => {
    const id = await submitRun(s, "asker", "race");
    const request = await pendingRequest(id);
    // Without the event stream the page cannot learn of the other answer: it keeps the card.
    const page = await browser.newPage();
    await page.route("**/api/events**", (route) => route.abort());
    await page.goto(`${s.url}/inbox`);
    const card = `[data-request-id="${request.id}"]`;
    await page.waitForSelector(`${card} button[data-option=stop]`);
    await s.call("POST", `/api/requests/${request.id}/answer`, { option_id: "go" });
    // The refusal refetches the inbox, which drops the card: hold that refetch a moment, or the
    // note can come and go between two looks of a loaded machine.
    await page.route(
      (url) => url.pathname === "/api/requests",
      async (route) => {
        await new Promise((r) => setTimeout(r, 1000));
        await route.continue().catch(() => {});
      },
    );
    await page.click(`${card} button[data-option=stop]`);
    await page.waitForSelector(`${card} .answer [data-code=already_answered]`);
    // Then the page shows the real state: the request is no longer pending.
    await page.waitForSelector(card, { state: "detached" });
    expect((await completed(id)).output).toBe("go");
    await page.close();
  }, 60_000);
});
