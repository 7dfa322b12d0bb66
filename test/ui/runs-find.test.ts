// The runs page's two views and its bulk operations in a browser: Queue (runs not ended, in
// dispatch order, reorderable) and History (ended runs, newest change first, searchable by title
// or id, by status and creation time), deep-linked by the URL; *waiting on you* for a run whose
// only outstanding attempt asks a person; ticking rows (all on the page, shift-click ranges) and
// one POST /api/runs/bulk per action with "N done, M refused"; a workflow's Retry all failed.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
let browser: Browser;
const ended: Record<string, string> = {};
let asker: string;
let sleeper: string;

const row = (id: string) => `tr[data-run-id="${id}"]`;
const rowIds = (page: import("playwright-core").Page) =>
  page.$$eval("tr[data-run-id]", (rows) => rows.map((r) => r.getAttribute("data-run-id")));

beforeAll(async () => {
  s = await startTestServer(consoleToml());
  for (const title of ["done one", "fail", "done two"])
    ended[title] = await submitRun(s, "chain", title);
  asker = await submitRun(s, "asker", "ask me");
  sleeper = await submitRun(s, "chain", "sleep:600000");
  await eventually(async () => {
    const c = (await s.call("GET", "/api/runs/counts")).body;
    return c.by_status.completed === 2 && c.by_status.failed === 1 && c.waiting_on_people === 1;
  }, "two completed, one failed, one waiting on a person");
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe("Queue and History", () => {
  it("opens on the Queue: runs still to do, with waiting on you, and counts per view", async () => {
    const page = await openConsole(browser, s, "/runs");
    await page.waitForSelector(row(asker));
    expect(await rowIds(page)).toEqual([asker, sleeper]);
    expect(await page.textContent(`${row(asker)} .badge`)).toBe("waiting on you");
    expect(await page.getAttribute(`${row(asker)} .badge`, "data-status")).toBe("running");
    expect(await page.textContent(`${row(sleeper)} .badge`)).not.toBe("waiting on you");
    await page.waitForSelector('[data-testid=waiting-count]:has-text("1 waiting on you")');
    await page.waitForSelector('[data-testid=header-waiting]:has-text("1 waiting on you")');
    expect(await page.textContent("[data-testid=queue-count]")).toBe("2");
    expect(await page.textContent("[data-testid=history-count]")).toBe("3");
    expect(await page.locator(`${row(asker)} [data-grip]`).count()).toBe(1);
    await shot(page, "runs-queue");
    // The run's own page says it too.
    await page.click(`${row(asker)} .run-link`);
    await page.waitForSelector('.run-head [data-waiting]:has-text("waiting on you")');
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("History lists ended runs newest change first, found by id or title, status and time", async () => {
    const page = await openConsole(browser, s, "/runs");
    await page.click("[data-view=history]");
    await page.waitForSelector(row(ended["done two"]!));
    expect(new URL(page.url()).searchParams.get("view")).toBe("history");
    const api = (await s.call("GET", "/api/runs?ended=true&sort=updated")).body as any[];
    expect(await rowIds(page)).toEqual(api.map((r) => r.id));
    expect(await page.locator("tr[data-run-id] [data-grip]").count()).toBe(0);
    // By the id's prefix.
    const failed = ended.fail!;
    await page.fill("input[name=q]", failed.slice(0, 20));
    await page.waitForFunction((id) => {
      const rows = [...(globalThis as any).document.querySelectorAll("tr[data-run-id]")];
      return rows.length === 1 && rows[0]!.getAttribute("data-run-id") === id;
    }, failed);
    await page.fill("input[name=q]", "done");
    await page.waitForFunction("document.querySelectorAll('tr[data-run-id]').length === 2");
    await page.fill("input[name=q]", "");
    await page.selectOption("select[name=since]", "1h");
    await page.waitForFunction("document.querySelectorAll('tr[data-run-id]').length === 3");
    expect(new URL(page.url()).searchParams.get("since")).toBe("1h");
    await shot(page, "runs-history");
    // A link opens the same view and filters.
    await page.goto(`${s.url}/runs?view=history&status=completed`);
    await page.waitForSelector(row(ended["done one"]!));
    expect((await rowIds(page)).sort()).toEqual([ended["done one"], ended["done two"]].sort());
    expect(await page.getAttribute("[data-view=history]", "aria-selected")).toBe("true");
    // Back to the Queue: the history's filters do not follow.
    await page.click("[data-view=queue]");
    await page.waitForSelector(row(asker));
    expect(new URL(page.url()).search).toBe("");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("bulk selection", () => {
  it("sends one request per action and shows what was done and refused", async () => {
    const page = await openConsole(browser, s, "/runs");
    const bulkPosts: string[] = [];
    page.on("request", (req) => {
      if (req.method() === "POST" && new URL(req.url()).pathname === "/api/runs/bulk")
        bulkPosts.push(req.postData() ?? "");
    });
    await page.waitForSelector(row(sleeper));
    await page.click("[data-select-all]");
    await page.waitForSelector('[data-testid=bulk-bar]:has-text("2 selected")');
    // Delete asks first; runs not ended are refused, each with its reason.
    await page.click("[data-bulk=delete]");
    await page.waitForSelector("dialog[open] .modal-actions");
    await page.click("dialog[open] button:has-text('Delete runs')");
    await page.waitForSelector('[data-testid=bulk-result]:has-text("0 done, 2 refused")');
    expect(await page.locator("[data-refused]").count()).toBe(2);
    expect(await page.textContent(`[data-refused="${asker}"]`)).toContain("conflict");
    expect(bulkPosts).toHaveLength(1);
    expect(JSON.parse(bulkPosts[0]!)).toEqual({ action: "delete", run_ids: [asker, sleeper] });
    // The selection was cleared; tick both again and cancel them.
    expect(await page.locator("[data-testid=bulk-bar]").count()).toBe(0);
    await page.click(`[data-select="${asker}"]`);
    await page.click(`[data-select="${sleeper}"]`);
    await page.click("[data-bulk=cancel]");
    await page.waitForSelector('[data-testid=bulk-result]:has-text("2 done, 0 refused")');
    expect(bulkPosts).toHaveLength(2);
    await page.waitForSelector("text=Nothing queued");
    expect((await s.call("GET", `/api/runs/${asker}`)).body.status).toBe("cancelled");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("shift-click ticks a range; a workflow's Retry all failed retries its failed runs", async () => {
    for (const title of ["done three", "done four"]) await submitRun(s, "chain", title);
    await eventually(
      async () => (await s.call("GET", "/api/runs?ended=true")).body.length >= 5,
      "five ended runs",
    );
    const page = await openConsole(browser, s, "/runs?view=history");
    await page.waitForFunction("document.querySelectorAll('tr[data-run-id]').length >= 5");
    const ids = (await rowIds(page)) as string[];
    await page.click(`[data-select="${ids[0]}"]`);
    await page.click(`[data-select="${ids[3]}"]`, { modifiers: ["Shift"] });
    await page.waitForSelector('[data-testid=bulk-bar]:has-text("4 selected")');
    expect(await page.isChecked(`[data-select="${ids[4]}"]`)).toBe(false);
    await page.click("[data-testid=bulk-bar] button:has-text('Clear selection')");
    await page.goto(`${s.url}/workflows/chain`);
    await page.click("[data-testid=retry-all-failed]");
    await page.waitForSelector('[data-testid=bulk-result]:has-text("1 done, 0 refused")');
    // The retry re-opened the failed run (which fails again: its title says so).
    await eventually(async () => {
      const run = (await s.call("GET", `/api/runs/${ended.fail}`)).body;
      return run.tasks.length > 1;
    }, "the failed run retried");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
