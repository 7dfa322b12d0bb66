// The runs page with 10,004 stored runs, in a real browser: the first rows come from one
// bounded page of the list (never the whole list), the count comes from the counts endpoint,
// live events refetch only that page, a search finds a run far down the list, "Show more"
// widens the page and the rows past a page are virtualized, and a run submitted from the form
// opens its own page.
import type { Browser, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, submitRun } from "../support/ui-console.ts";

let s: TestServer;
let browser: Browser;
const SEEDED = 10_000;

beforeAll(async () => {
  s = await startTestServer(consoleToml());
  // Four runs hold the pool's four slots for ten minutes, so the seeded runs stay queued and
  // the server stays idle while the page is read.
  for (let i = 0; i < 4; i++) await submitRun(s, "chain", "sleep:600000");
  for (let start = 0; start < SEEDED; start += 1000) {
    const batch = Array.from({ length: 1000 }, (_, i) => ({ title: `seed ${start + i + 1}` }));
    const res = await s.call("POST", "/api/workflows/chain/runs/batch", batch);
    if (res.status !== 201) throw new Error(`seeding failed: ${JSON.stringify(res.body)}`);
  }
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** The run-list reads the page made (`GET /api/runs`, not one run), with their body sizes. */
function listReads(page: import("playwright-core").Page) {
  const reads: Array<{ url: string; bytes: number }> = [];
  page.on("response", async (res: Response) => {
    const url = new URL(res.url());
    if (url.pathname !== "/api/runs") return;
    reads.push({ url: url.search, bytes: (await res.body()).length });
  });
  return reads;
}

describe("the runs page at 10,000 runs", () => {
  it("renders the first rows from one bounded page and counts the rest", async () => {
    const page = await openConsole(browser, s, "/inbox");
    const reads = listReads(page);
    await page.click("nav >> text=Runs");
    await page.waitForSelector("tr[data-run-id]");
    expect(await page.locator("tr[data-run-id]").count()).toBe(100);
    await page.waitForSelector(`[data-testid=runs-count]:has-text("100 of 10,004 runs")`);
    expect(reads.length).toBeGreaterThan(0);
    for (const read of reads) {
      expect(read.url).toContain("limit=100");
      // A page of 100 summaries; the whole list would be about 2 MiB.
      expect(read.bytes).toBeLessThan(64 * 1024);
    }
    // A live event refetches the page, still bounded: cancel a run shown near the top.
    // (A queued one below the four that hold every slot: cancelling it frees none, so the
    // others stay queued and the count stays still.)
    const top = await page.locator("tr[data-run-id]").nth(4).getAttribute("data-run-id");
    const before = reads.length;
    await s.call("POST", `/api/runs/${top}/cancel`);
    // Cancelled, it leaves the Queue (the runs not ended) for the History.
    await page.waitForSelector(`tr[data-run-id="${top}"]`, { state: "detached" });
    await page.waitForSelector(`[data-testid=runs-count]:has-text("100 of 10,003 runs")`);
    expect(reads.length).toBeGreaterThan(before);
    for (const read of reads.slice(before)) expect(read.bytes).toBeLessThan(64 * 1024);
    // A new run goes to the end of the dispatch list: the count says so.
    await submitRun(s, "chain", "the newest");
    await page.waitForSelector(`[data-testid=runs-count]:has-text("100 of 10,004 runs")`);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("finds a run far down the list by its title, and shows 100 more on demand", async () => {
    const page = await openConsole(browser, s);
    await page.waitForSelector("tr[data-run-id]");
    await page.fill("input[name=q]", "seed 9876");
    await page.waitForSelector("tr[data-run-id]:has-text('seed 9876')");
    expect(await page.locator("tr[data-run-id]").count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("q")).toBe("seed 9876");
    await page.fill("input[name=q]", "");
    await page.waitForFunction("document.querySelectorAll('tr[data-run-id]').length === 100");
    await page.click("button:has-text('Show 100 more')");
    await page.waitForSelector(`[data-testid=runs-count]:has-text("200 of")`);
    // 200 rows are more than a page: only those near the viewport are in the document.
    await page.waitForFunction("document.querySelectorAll('tr[data-run-id]').length < 100");
    const rendered = await page.locator("tr[data-run-id]").count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(100);
    // Scrolled to the end, the 200th run is there (seeded titles run in dispatch order).
    await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)");
    await page.waitForSelector("tr[data-index='199']");
    expect(await page.locator("tr[data-index='0']").count()).toBe(0);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("opens the new run's page after New run", async () => {
    const page = await openConsole(browser, s);
    await page.click("text=New run");
    await page.selectOption("dialog select[name=workflow]", "chain");
    await page.fill("dialog input[name=title]", "watch me");
    await page.click("dialog button[type=submit]");
    await page.waitForURL(/\/runs\/[0-9A-Z]{26}$/);
    await page.waitForSelector("h1:has-text('watch me')");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
