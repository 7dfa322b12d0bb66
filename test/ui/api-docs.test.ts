// /docs (Swagger UI) and /redoc render in a real browser, from local assets only: any request
// leaving the server's origin fails the test.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";

let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  s = await startTestServer();
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

async function render(path: string, selector: string) {
  const page = await browser.newPage();
  const foreign = new Set<string>();
  const local = (url: string) => url.startsWith(s.url) || /^(data|blob):/.test(url);
  page.on("request", (req) => {
    if (!local(req.url())) foreign.add(req.url());
  });
  // A request our content-security-policy stopped inside the browser never left it.
  page.on("requestfailed", (req) => {
    if (req.failure()?.errorText.includes("BLOCKED_BY_CSP")) foreign.delete(req.url());
  });
  await page.goto(s.url + path);
  await page.waitForSelector(selector, { timeout: 20_000 });
  const text = await page.textContent("body");
  await page.close();
  return { text: text ?? "", foreign: [...foreign] };
}

describe("API documentation in a browser", () => {
  it("Swagger UI at /docs lists the operations", async () => {
    const { text, foreign } = await render("/docs", ".opblock");
    expect(text).toContain("/api/runs");
    expect(foreign).toEqual([]);
  }, 60_000);

  it("Redoc at /redoc renders the description", async () => {
    const { text, foreign } = await render("/redoc", "[role=menuitem], .menu-content");
    expect(text).toContain("Yardmaster");
    expect(foreign, foreign.join(" ")).toEqual([]);
  }, 60_000);
});
