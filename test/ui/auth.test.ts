// Token mode in a browser: the console asks for the operator token once, keeps it for the tab,
// and then works, live stream included (the token rides on the EventSource URL). Until it has
// the token it sends nothing that would be refused.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { type Noise, recordNoise } from "../support/console-noise.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot } from "../support/ui-console.ts";

let s: TestServer;
let browser: Browser;
let token: string;
beforeAll(async () => {
  s = await startTestServer(consoleToml("require_token = true"));
  token = readFileSync(join(s.dir, ".yardmaster", "operator-token"), "utf8").trim();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe("the console with auth on", () => {
  it("asks for the token, refuses a wrong one, then works live", async () => {
    const page = await openConsole(browser, s, "/runs");
    await page.waitForSelector(".token-card input[name=token]");
    // Where the current token is, not how to rotate it (a rotation logs out every other tab).
    const words = await page.textContent(".token-card");
    expect(words).toContain(".yardmaster/operator-token");
    expect(words).not.toContain("token rotate");
    await shot(page, "token");
    await page.fill(".token-card input[name=token]", "not-the-token");
    await page.click(".token-card button[type=submit]");
    await page.waitForSelector(".token-card [role=alert]");
    await page.fill(".token-card input[name=token]", token);
    await page.click(".token-card button[type=submit]");
    await page.waitForSelector("h1:has-text('Runs')");
    await page.waitForSelector(".conn[data-connection=live]");
    // The History view, where the run lands once it ended: it must arrive there live.
    await page.click("[data-view=history]");
    const created = await s.call(
      "POST",
      "/api/workflows/chain/runs",
      { title: "behind a token" },
      { authorization: `Bearer ${token}` },
    );
    expect(created.status).toBe(201);
    await page.waitForSelector(`tr[data-run-id="${created.body.run_id}"] [data-status=completed]`);
    // Kept for the tab: a reload does not ask again.
    await page.reload();
    await page.waitForSelector(`tr[data-run-id="${created.body.run_id}"]`);
    expect(await page.locator(".token-card").count()).toBe(0);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("sends nothing without the token, so the browser console stays quiet", async () => {
    const page = await browser.newPage();
    const noise: Noise[] = [];
    recordNoise(page, noise);
    await page.goto(`${s.url}/runs`);
    await page.waitForSelector(".token-card input[name=token]");
    // Only /api/me goes out before the token: every other call would be a 401 in the console.
    await page.waitForTimeout(500);
    expect(noise).toEqual([]);
    await page.fill(".token-card input[name=token]", token);
    await page.click(".token-card button[type=submit]");
    await page.waitForSelector(".conn[data-connection=live]");
    await page.click("nav[aria-label=Main] a:has-text('Workflows')");
    await page.waitForSelector("tr[data-workflow=chain]");
    await page.waitForTimeout(500);
    expect(noise).toEqual([]);
    await page.close();
  }, 60_000);

  it("serves the console's files without a token", async () => {
    const index = await fetch(`${s.url}/runs`);
    expect(index.status).toBe(200);
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeTruthy();
    expect((await fetch(s.url + asset)).status).toBe(200);
    expect((await fetch(`${s.url}/api/runs`)).status).toBe(401);
  });
});
