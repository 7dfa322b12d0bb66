// The console's small things in a browser: copy buttons on ids and JSON blocks, JSON that wraps
// instead of scrolling sideways on a phone, the dark theme under `prefers-color-scheme: dark`,
// and on a phone a tab bar that keeps every tab on screen and zoom buttons that cover no card.
import type { Browser } from "playwright-core";
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
  await eventually(
    async () => (await s.call("GET", `/api/runs/${runId}`)).body.status === "completed",
    "the showcase run to complete",
  );
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const overlap = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x) &&
  Math.min(a.y + a.height, b.y + b.height) > Math.max(a.y, b.y);

/** What the page's clipboard holds. */
const clipboard = (page: any) =>
  page.evaluate(() => (globalThis as any).navigator.clipboard.readText()) as Promise<string>;

describe("copy buttons", () => {
  it("copy a run id, a task id, a request id and a JSON block", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}`);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.click("button[data-copy='run id']");
    expect(await clipboard(page)).toBe(runId);
    await page.waitForSelector("button[data-copy='run id'] :text('Copied')");

    const task = (await s.call("GET", `/api/runs/${runId}`)).body.tasks[0];
    await page.click(`tr[data-task-id="${task.id}"] button[data-copy^='task id']`);
    expect(await clipboard(page)).toBe(String(task.id));
    // A row's payload and result are JSON blocks with their own button: the pretty text.
    await page.click(`tr[data-task-id="${task.id}"] button.fold`);
    await page.click(".row-detail button[data-copy='payload JSON']");
    expect(JSON.parse(await clipboard(page))).toEqual(task.payload);
    // The output card's JSON.
    await page.click(".run-side button[data-copy='JSON']");
    const output = (await s.call("GET", `/api/runs/${runId}`)).body.output;
    expect(await clipboard(page)).toBe(JSON.stringify(output.value ?? output, null, 2));

    const asker = await submitRun(s, "asker", "copy me");
    const request = await eventually(async () => {
      const list = (await s.call("GET", `/api/requests?pending=true&run=${asker}`)).body as any[];
      return list[0];
    }, "the request to open");
    await page.goto(`${s.url}/inbox`);
    await page.click(`[data-request-id="${request.id}"] button[data-copy^='request id']`);
    expect(await clipboard(page)).toBe(String(request.id));
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("wraps long JSON on a phone instead of scrolling sideways", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}?tab=events`, PHONE);
    await page.waitForSelector(".events details.json");
    await page.$$eval(".events details.json", (els) => {
      for (const el of els) (el as any).open = true;
    });
    const overflowing = await page.$$eval(
      ".json pre",
      (els) => els.filter((el: any) => el.scrollWidth > el.clientWidth + 1).length,
    );
    expect(overflowing).toBe(0);
    const font = await page.$eval(
      ".json pre",
      (el: any) => (globalThis as any).getComputedStyle(el).fontFamily,
    );
    expect(font).toMatch(/mono/i);
    await page.close();
  }, 60_000);
});

/** Relative luminance of an `rgb(...)` colour, and the contrast of two. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

describe("the dark theme", () => {
  it("follows prefers-color-scheme: surfaces darken, text stays readable", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}`);
    await page.waitForSelector(".gnode[data-node=intake]");
    const colours = () =>
      page.evaluate(() => {
        const style = (sel: string) =>
          (globalThis as any).getComputedStyle((globalThis as any).document.querySelector(sel));
        return {
          page: style("body").backgroundColor,
          text: style("body").color,
          card: style(".card").backgroundColor,
          title: style(".run-title h1").color,
          node: style(".gnode").backgroundColor,
          nodeText: style(".gnode .gnode-name, .gnode").color,
          badge: style(".badge").color,
          badgeBg: style(".badge").backgroundColor,
          muted: style(".run-meta .muted").color,
        };
      });
    const light = await colours();
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForTimeout(400); // the cards' colours ease over 0.2 s
    const dark = await colours();
    await shot(page, "dark-run");
    for (const key of ["page", "text", "card", "node"] as const)
      expect(dark[key]).not.toBe(light[key]);
    expect(luminance(dark.page)).toBeLessThan(0.05);
    expect(luminance(dark.card)).toBeLessThan(0.05);
    expect(contrast(dark.text, dark.page)).toBeGreaterThan(7);
    expect(contrast(dark.title, dark.card)).toBeGreaterThan(7);
    expect(contrast(dark.nodeText, dark.node)).toBeGreaterThan(4.5);
    expect(contrast(dark.badge, dark.badgeBg)).toBeGreaterThan(4.5);
    expect(contrast(dark.muted, dark.card)).toBeGreaterThan(4.5);
    for (const path of ["/inbox", "/workflows/showcase", `/runs/${runId}?tab=timeline`]) {
      await page.goto(s.url + path);
      await page.waitForSelector(".card");
      const c = await page.evaluate(() => {
        const card = (globalThis as any).getComputedStyle(
          (globalThis as any).document.querySelector(".card"),
        );
        return { bg: card.backgroundColor, fg: card.color };
      });
      expect(luminance(c.bg)).toBeLessThan(0.05);
      expect(contrast(c.fg, c.bg)).toBeGreaterThan(7);
    }
    await shot(page, "dark-timeline");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("a run on a phone (defect 8)", () => {
  it("keeps every tab on screen, plugin tabs too, and the zoom buttons off the cards", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}`, PHONE);
    await page.waitForSelector(".gnode[data-node=merge]");
    const tabs = await page.$$eval(".run-main .tabs .tab", (els) =>
      els.map((el: any) => {
        const r = el.getBoundingClientRect();
        return { label: el.textContent, left: r.left, right: r.right };
      }),
    );
    // Plugin panes come after Events.
    const events = tabs.findIndex((t) => t.label === "Events");
    expect(tabs.length).toBeGreaterThan(events + 1);
    for (const t of tabs) {
      expect(t.left).toBeGreaterThanOrEqual(0);
      expect(t.right).toBeLessThanOrEqual(PHONE.width);
    }
    // A tab past Events can be clicked where it is.
    const last = page.locator(".run-main .tabs .tab").last();
    await last.click();
    expect(await last.getAttribute("aria-selected")).toBe("true");

    const controls = await page.locator(".react-flow__controls").boundingBox();
    expect(controls).not.toBeNull();
    const cards = await page.$$eval(".gnode", (els) =>
      els.map((el: any) => {
        const r = el.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    expect(cards.length).toBeGreaterThanOrEqual(3);
    for (const card of cards) expect(overlap(card, controls as Box)).toBe(false);
    await shot(page, "phone-run-tabs");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});

/** The run's first pending request, once it is open. */
const pendingRequest = (run: string) =>
  eventually(async () => {
    const list = (await s.call("GET", `/api/requests?pending=true&run=${run}`)).body as any[];
    return list[0];
  }, "a pending request");

describe("a request answered elsewhere while typing (inbox)", () => {
  it("keeps the card, says who answered and when, keeps the typed text until dismissed", async () => {
    const typed = await submitRun(s, "forms", "half typed");
    const untouched = await submitRun(s, "forms", "untouched");
    const request = await pendingRequest(typed);
    const other = await pendingRequest(untouched);
    const page = await openConsole(browser, s, "/inbox");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const card = page.locator(`[data-request-id="${request.id}"]`);
    await card.locator("textarea").fill("Dana, with a note I was still wri");
    // Another tab, or the CLI, answers both.
    for (const r of [request, other]) {
      const res = await s.call("POST", `/api/requests/${r.id}/answer`, { value: "Sam" });
      expect(res.status).toBe(200);
    }
    // The card nobody typed into leaves; the other stays, saying what happened.
    await page.waitForSelector(`[data-request-id="${other.id}"]`, { state: "detached" });
    const note = card.locator("[data-elsewhere]");
    await note.waitFor();
    const text = await note.innerText();
    expect(text).toMatch(/Answered elsewhere by another operator .* at .*: "?Sam"?/s);
    expect(await card.locator(".draft-text").innerText()).toBe("Dana, with a note I was still wri");
    expect(await card.locator("textarea").count()).toBe(0);
    await card.locator("button[data-copy='your unsent answer']").click();
    expect(await clipboard(page)).toBe("Dana, with a note I was still wri");
    // It stays through later refetches (the run's next request opens meanwhile).
    await page.waitForTimeout(500);
    expect(await note.isVisible()).toBe(true);
    await shot(page, "inbox-elsewhere");
    await card.getByRole("button", { name: "Dismiss" }).click();
    await card.waitFor({ state: "detached" });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("validation messages in words", () => {
  it("words the form's own checks and the server's refusals, never the validator's text", async () => {
    const id = await submitRun(s, "approval", "words");
    const request = await pendingRequest(id);
    const page = await openConsole(browser, s, "/inbox");
    const card = `[data-request-id="${request.id}"]`;
    await page.waitForSelector(`${card} .schema-form`);
    await page.click(`${card} .schema-form button[type=submit]`);
    await page.waitForSelector(`${card} .has-error .error-detail`);
    let shown = await page.locator(`${card} .schema-form`).innerText();
    expect(shown).toContain("Approver is required");
    expect(shown).toContain("Budget (EUR) is required");
    expect(shown).not.toMatch(/must have required property/);
    await page.fill(`${card} input#root_approver`, "D");
    await page.fill(`${card} input#root_budget`, "0");
    await page.click(`${card} .schema-form button[type=submit]`);
    await page.waitForSelector(`${card} .has-error .error-detail:has-text('at least 1')`);
    shown = await page.locator(`${card} .schema-form`).innerText();
    expect(shown).toContain("must be at least 2 characters");
    expect(shown).toContain("must be at least 1");
    expect(shown).not.toMatch(/must NOT|>=/);

    // A refusal of the server (a title over 1,000 characters) in the same words.
    await page.goto(`${s.url}/runs/${id}`);
    await page.click(".run-head button:has-text('Edit')");
    await page.fill("dialog[open] input[name=title]", "x".repeat(1001));
    await page.click("dialog[open] button:has-text('Save')");
    const issue = page.locator("dialog[open] .error-issues li");
    await issue.waitFor();
    expect(await issue.innerText()).toBe("title: must be at most 1000 characters");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});

describe("wording", () => {
  it("names what each confirmation button does", async () => {
    const id = await submitRun(s, "asker", "wording");
    await pendingRequest(id);
    const page = await openConsole(browser, s, `/runs/${id}`);
    const buttons = () => page.locator("dialog[open] .modal-actions button").allInnerTexts();
    await page.click(".run-head button[aria-label=Cancel]");
    expect(await buttons()).toEqual(["Keep it running", "Cancel run"]);
    await page.click("dialog[open] button:has-text('Keep it running')");
    await page.click(".run-head button[aria-label=Delete]");
    expect(await buttons()).toEqual(["Keep the run", "Delete run"]);
    await page.keyboard.press("Escape");
    await page.goto(`${s.url}/workflows/showcase`);
    await page.click("button:has-text('Remove')");
    expect(await buttons()).toEqual(["Keep workflow", "Remove workflow"]);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
