// The console on a phone (390×844): the navigation folds into a menu, no page scrolls sideways
// (a wide table scrolls inside its card), the run's buttons wrap, and an answer's button stays
// inside its card. At desktop width the sidebar stays where it was.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

const PHONE = { width: 390, height: 844 };

let s: TestServer;
let browser: Browser;
let runId: string;
beforeAll(async () => {
  s = await startTestServer(consoleToml());
  browser = await launchBrowser();
  runId = await submitRun(s, "showcase", "alpha beta gamma");
  // A text request (its "Send answer" button) and a form request wait in the inbox.
  const forms = await submitRun(s, "forms", "phone");
  const approval = await submitRun(s, "approval", "phone laptops");
  for (const id of [forms, approval])
    await eventually(
      async () => (await s.call("GET", `/api/requests?pending=true&run=${id}`)).body.length > 0,
      "a pending request",
    );
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** How far the page itself scrolls sideways (0: not at all). */
const sideways = (page: Page) =>
  page.evaluate(() => {
    const doc = (globalThis as any).document.documentElement;
    return doc.scrollWidth - (globalThis as any).innerWidth;
  });

/** The right edge of every element matching `selector`, and the viewport's width. */
const rightEdges = (page: Page, selector: string) =>
  page.$$eval(selector, (els) =>
    els.map((el) => Math.round((el as any).getBoundingClientRect().right)),
  );

describe("the console on a phone", () => {
  it("scrolls no page sideways: runs, a run, the inbox, workflows", async () => {
    // The showcase run has ended: it is in the History view.
    const page = await openConsole(browser, s, "/runs?view=history", PHONE);
    await page.waitForSelector(`tr[data-run-id="${runId}"]`);
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // The runs table is wider than the phone: it scrolls inside its card, not the page.
    const card = await page.$eval(".card:has(.runs-table)", (el: any) => ({
      right: el.getBoundingClientRect().right,
      scrolls: el.scrollWidth > el.clientWidth,
    }));
    expect(card.right).toBeLessThanOrEqual(PHONE.width);
    expect(card.scrolls).toBe(true);
    await shot(page, "narrow-runs");

    await page.goto(`${s.url}/runs/${runId}`);
    await page.waitForSelector(".gnode[data-node=intake]");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    // Every lifecycle button is on screen: the row wraps.
    for (const right of await rightEdges(page, ".run-head .btn-row .btn"))
      expect(right).toBeLessThanOrEqual(PHONE.width);
    await shot(page, "narrow-run");

    await page.goto(`${s.url}/inbox`);
    await page.waitForSelector(".answer[data-mode=text] button[type=submit]");
    await page.waitForSelector(".answer[data-mode=form] button[type=submit]");
    expect(await sideways(page)).toBeLessThanOrEqual(0);
    const inside = await page.$$eval(".request", (cards) =>
      cards.map((card: any) => {
        const box = card.getBoundingClientRect();
        return [...card.querySelectorAll("button")].every((b: any) => {
          const r = b.getBoundingClientRect();
          return r.left >= box.left && r.right <= box.right;
        });
      }),
    );
    expect(inside.length).toBeGreaterThanOrEqual(2);
    expect(inside.every(Boolean)).toBe(true);
    await shot(page, "narrow-inbox");

    for (const path of ["/workflows", "/workflows/showcase"]) {
      await page.goto(s.url + path);
      await page.waitForSelector(path === "/workflows" ? "tr[data-workflow=showcase]" : ".gnode");
      expect(await sideways(page)).toBeLessThanOrEqual(0);
    }
    await shot(page, "narrow-workflow");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("folds the navigation into a menu that opens, navigates, and closes", async () => {
    const page = await openConsole(browser, s, "/runs", PHONE);
    const menu = page.getByRole("button", { name: "Menu" });
    const inbox = page.getByRole("navigation", { name: "Main" }).getByRole("link", {
      name: "Inbox",
    });
    expect(await inbox.isVisible()).toBe(false);
    await menu.click();
    await inbox.waitFor({ state: "visible" });
    expect(await menu.getAttribute("aria-expanded")).toBe("true");
    await shot(page, "narrow-menu");
    // Following a link goes there and folds the menu away.
    await inbox.click();
    await page.waitForURL(/\/inbox$/);
    await inbox.waitFor({ state: "hidden" });
    expect(await menu.getAttribute("aria-expanded")).toBe("false");
    // Escape folds it too, and gives the focus back to the menu button.
    await menu.click();
    await inbox.waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await inbox.waitFor({ state: "hidden" });
    expect(await page.locator("button[aria-label=Menu]:focus").count()).toBe(1);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("keeps the sidebar at desktop width, with no menu button", async () => {
    const page = await openConsole(browser, s, "/runs");
    const nav = page.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "Inbox" }).isVisible()).toBe(true);
    expect((await nav.boundingBox())?.width).toBe(216);
    expect(await page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
    await page.close();
  }, 60_000);
});
