// The runs list in a browser: live status without reload, submitting from the form, reordering
// by dragging a row (checked through the API), pause and cancel with confirmation.
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

const row = (id: string) => `tr[data-run-id="${id}"]`;

describe("the runs list", () => {
  it("shows a submitted run and follows its status live, without a reload", async () => {
    const page = await openConsole(browser, s);
    await page.evaluate(() => {
      (globalThis as any).__sameDocument = true;
    });
    const id = await submitRun(s, "chain", "sleep:1200");
    await page.waitForSelector(
      `${row(id)} [data-status="running"], ${row(id)} [data-status="queued"]`,
    );
    // Ended, it leaves the Queue for the History.
    await page.waitForSelector(row(id), { state: "detached" });
    await page.click("[data-view=history]");
    await page.waitForSelector(`${row(id)} [data-status="completed"]`);
    await page.waitForSelector(".conn[data-connection=live]");
    expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
    await shot(page, "runs");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("submits a run from the form", async () => {
    const page = await openConsole(browser, s);
    await page.click("text=New run");
    await page.selectOption("dialog select[name=workflow]", "chain");
    await page.fill("dialog input[name=title]", "from the form");
    await page.fill("dialog textarea[name=description]", "typed *in* the browser");
    await page.click("dialog button[type=submit]");
    // The console opens the new run's page.
    await page.waitForSelector("h1:has-text('from the form')");
    const runs = (await s.call("GET", "/api/runs?workflow=chain")).body as any[];
    const run = runs.find((r) => r.title === "from the form");
    expect(run).toBeTruthy();
    const detail = (await s.call("GET", `/api/runs/${run.id}`)).body;
    expect(detail.description).toBe("typed *in* the browser");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("opens New run with the focus in Title, so typing at once fills it", async () => {
    const page = await openConsole(browser, s);
    await page.click("text=New run");
    await page.keyboard.type("espresso cortado");
    expect(await page.inputValue("dialog input[name=title]")).toBe("espresso cortado");
    expect(await page.locator("dialog[open]").count()).toBe(1);
    await page.keyboard.press("Escape");
    // A confirmation focuses its decision, not the ×.
    const id = await submitRun(s, "chain", "sleep:60000");
    await page.goto(`${s.url}/runs/${id}`);
    await page.click(".run-head button[aria-label=Cancel]");
    await page.waitForSelector("dialog[open] .modal-actions");
    // The focused element is the confirmation's decision, inside the dialog's actions.
    const focused = page.locator("dialog[open] .modal-actions button:focus");
    expect(await focused.textContent()).toBe("Cancel run");
    await page.keyboard.press("Escape");
    await s.call("POST", `/api/runs/${id}/cancel`);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("refetches the page when an action is refused because it was out of date", async () => {
    const id = await submitRun(s, "chain", "sleep:60000");
    await s.call("POST", `/api/runs/${id}/pause`);
    const page = await openConsole(browser, s, "/runs");
    // No event stream: the page learns of the other operator's resume only from the refusal.
    await page.route("**/api/events**", (route) => route.abort());
    await page.goto(`${s.url}/runs/${id}`);
    await page.waitForSelector(".run-head button[aria-label=Resume]");
    await s.call("POST", `/api/runs/${id}/resume`);
    await page.click(".run-head button[aria-label=Resume]");
    await page.waitForSelector(".toast:has-text('can be resumed')");
    await page.waitForSelector(".run-head button[aria-label=Pause]:not([disabled])");
    expect(await page.textContent(".run-head .run-meta")).not.toContain("paused");
    await s.call("POST", `/api/runs/${id}/cancel`);
    await page.close();
  }, 60_000);

  it("edits a run's title and sends only what changed", async () => {
    const id = await submitRun(s, "chain", "old name", "kept as is");
    const page = await openConsole(browser, s, `/runs/${id}`);
    await page.click(".run-head button:has-text('Edit')");
    await page.keyboard.press("Control+A");
    await page.keyboard.type("new name");
    await page.click("dialog[open] button:has-text('Save')");
    await page.waitForSelector(".run-head h1:has-text('new name')");
    expect((await s.call("GET", `/api/runs/${id}`)).body).toMatchObject({
      title: "new name",
      description: "kept as is",
    });
    const updated = (await s.call("GET", `/api/runs/${id}/events?limit=1000`)).body as any[];
    expect(updated.filter((e) => e.name === "run.updated").map((e) => e.data)).toEqual([
      { changed: { title: "new name" } },
    ]);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("says so when the run on screen is deleted elsewhere", async () => {
    const id = await submitRun(s, "chain", "doomed");
    const page = await openConsole(browser, s, `/runs/${id}`);
    await page.waitForSelector(".run-head h1:has-text('doomed')");
    await s.call("DELETE", `/api/runs/${id}`);
    await page.waitForSelector(".page a:has-text('Back to the runs')");
    expect(await page.locator(".run-head").count()).toBe(0);
    expect(await page.textContent(".page")).toContain("does not exist");
    await page.close();
  }, 60_000);

  it("reorders runs by dragging a row", async () => {
    // Runs that stay in the Queue (each holds its first node) until cancelled at the end.
    const ids = [
      await submitRun(s, "chain", "sleep:600000"),
      await submitRun(s, "chain", "sleep:600000"),
      await submitRun(s, "chain", "sleep:600000"),
    ];
    const page = await openConsole(browser, s, "/runs?workflow=chain");
    await page.waitForSelector(row(ids[2]));
    const grip = await page.locator(`${row(ids[2])} .grip`).boundingBox();
    const target = await page.locator(row(ids[0])).boundingBox();
    if (!grip || !target) throw new Error("rows not laid out");
    await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
    await page.mouse.down();
    await page.mouse.move(grip.x + 10, target.y + 4, { steps: 8 });
    await page.mouse.up();
    // "drag three" now stands right before "drag one" in the whole dispatch list.
    const positions = await eventually(async () => {
      const runs = (await s.call("GET", "/api/runs")).body as any[];
      const pos = (id: string) => runs.find((r) => r.id === id).position;
      return pos(ids[2]) < pos(ids[0]) ? runs.map((r) => r.id) : undefined;
    }, "the dragged run to move up");
    expect(positions.indexOf(ids[2]) + 1).toBe(positions.indexOf(ids[0]));
    await page.waitForFunction(
      ([a, b]) => {
        const rows = [...(globalThis as any).document.querySelectorAll("tr[data-run-id]")].map(
          (r) => r.getAttribute("data-run-id"),
        );
        return rows.indexOf(a) === rows.indexOf(b) - 1;
      },
      [ids[2], ids[0]],
    );
    for (const id of ids) await s.call("POST", `/api/runs/${id}/cancel`);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("pauses a run, and cancels it after confirming", async () => {
    const id = await submitRun(s, "chain", "sleep:8000");
    const page = await openConsole(browser, s, `/runs/${id}`);
    await page.waitForSelector(".run-head [data-status=running]");
    await page.click(".run-head button:has-text('Pause')");
    await page.waitForSelector(".run-head [data-status=paused]");
    await page.click(".run-head button:has-text('Cancel')");
    await page.click("dialog button:has-text('Cancel run')");
    await page.waitForSelector(".run-head [data-status=cancelled]");
    expect((await s.call("GET", `/api/runs/${id}`)).body.status).toBe("cancelled");
    await page.close();
  }, 60_000);
});
