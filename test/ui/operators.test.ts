// Who did it, in the console: with named operators, a run's work log names the operator beside
// a note, its events name the operator of each act, and an answered request says "Answered by
// ana" (http.md "Operators").
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, shot } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
let browser: Browser;
let ana: string;
let bo: string;
beforeAll(async () => {
  const operators = [
    "",
    "[operators.ana]",
    'token_file = "tokens/ana"',
    "",
    "[operators.bo]",
    'token_file = "tokens/bo"',
    "",
  ].join("\n");
  s = await startTestServer(consoleToml("require_token = true") + operators);
  ana = readFileSync(join(s.dir, "tokens", "ana"), "utf8").trim();
  bo = readFileSync(join(s.dir, "tokens", "bo"), "utf8").trim();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const as = (token: string, method: string, path: string, body?: unknown) =>
  s.call(method, path, body, { authorization: `Bearer ${token}` });

/** A console page already holding `token` (as if typed into the token prompt). */
async function openAs(token: string, path: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(15_000);
  // The token prompt's storage (ui/src/api/token.ts), filled before the console's scripts run.
  await page.addInitScript({
    content: `window.sessionStorage.setItem("yardmaster.token", ${JSON.stringify(token)});`,
  });
  await page.goto(s.url + path);
  await page.waitForSelector(".shell");
  return page;
}

describe("operators in the console", () => {
  it("shows who wrote a note, who acted on the run, and who answered", async () => {
    const created = await as(ana, "POST", "/api/workflows/asker/runs", { title: "whose" });
    expect(created.status).toBe(201);
    const runId = created.body.run_id as string;
    const request = await eventually(async () => {
      const list = (await as(bo, "GET", `/api/requests?pending=true&run=${runId}`)).body;
      return list[0];
    }, "the request to open");
    expect(
      (await as(bo, "POST", `/api/requests/${request.id}/answer`, { option_id: "go" })).status,
    ).toBe(200);
    expect((await as(ana, "POST", `/api/runs/${runId}/log`, { text: "ana was here" })).status).toBe(
      200,
    );

    const page = await openAs(bo, `/runs/${runId}?tab=log`);
    const note = page.locator(".log-entry.log-user", { hasText: "ana was here" });
    await note.waitFor();
    expect(await note.locator(".operator").textContent()).toBe("by ana");
    expect(await page.locator(".log-entry:not(.log-user) .operator").count()).toBe(0);
    await shot(page, "operators-log");

    await page.goto(`${s.url}/runs/${runId}?tab=requests`);
    const answered = page.locator(`[data-request-id="${request.id}"] .answered`);
    await answered.waitFor();
    expect(await answered.textContent()).toMatch(/^Answered by bo: /);

    await page.goto(`${s.url}/runs/${runId}?tab=events`);
    const createdRow = page.locator("tr[data-event='run.created']");
    await createdRow.waitFor();
    expect(await createdRow.locator(".operator").textContent()).toBe(" by ana");
    const answerRow = page.locator("tr[data-event='request.answered']");
    expect(await answerRow.locator(".operator").textContent()).toBe(" by bo");
    expect(await page.locator("tr[data-event='task.started'] .operator").count()).toBe(0);
    await page.close();
  }, 60_000);
});
