// What a first-time operator meets: the tab's title names the page (and the open requests), an
// unknown console path shows the console's not-found page after one request at most, and a long
// error in the task table ends in an ellipsis inside its column.
import type { Browser, Response } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
let browser: Browser;
let failed: string;
beforeAll(async () => {
  s = await startTestServer(consoleToml());
  browser = await launchBrowser();
  failed = await submitRun(s, "chain", "fail");
  const asking = await submitRun(s, "approval", "tab title");
  await eventually(
    async () => (await s.call("GET", `/api/requests?pending=true&run=${asking}`)).body.length > 0,
    "a pending request",
  );
  await eventually(
    async () => (await s.call("GET", `/api/runs/${failed}`)).body.status === "failed",
    "the failed run",
  );
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe("a first look at the console", () => {
  it("titles the tab per page, with the open requests", async () => {
    const page = await openConsole(browser, s, "/runs");
    await page.waitForFunction(
      () => (globalThis as any).document.title === "(1) Runs · Yardmaster",
    );
    await page.click("a[href='/inbox']");
    await page.waitForFunction(
      () => (globalThis as any).document.title === "Inbox (1) · Yardmaster",
    );
    await page.goto(`${s.url}/runs/${failed}`);
    await page.waitForFunction(
      () => (globalThis as any).document.title === "(1) fail · Yardmaster",
    );
    await page.goto(`${s.url}/workflows/chain`);
    await page.waitForFunction(
      () => (globalThis as any).document.title === "(1) chain · Workflows · Yardmaster",
    );
    expect(page.errors).toEqual([]);
  });

  it("shows its not-found page for an unknown path, asking the server once", async () => {
    const page = await openConsole(browser, s, "/runs");
    const notFound: string[] = [];
    page.on("response", (res: Response) => {
      if (res.status() === 404) notFound.push(new URL(res.url()).pathname);
    });
    const doc = await page.goto(`${s.url}/no-such-page`);
    expect(doc?.status()).toBe(200);
    await page.waitForSelector("text=Nothing here");
    expect(await page.title()).toContain("Not found");

    await page.goto(`${s.url}/runs/NOPE`);
    await page.waitForSelector(".error-note");
    await page.goto(`${s.url}/workflows/nope`);
    await page.waitForSelector(".error-note");
    await page.waitForTimeout(300);
    expect(notFound.filter((p) => p.startsWith("/api/runs/NOPE"))).toEqual(["/api/runs/NOPE"]);
    expect(notFound.filter((p) => p.startsWith("/api/workflows/nope"))).toEqual([
      "/api/workflows/nope",
    ]);
  });

  it("ends a long error in the task table with an ellipsis inside its column", async () => {
    const page = await openConsole(browser, s, `/runs/${failed}`);
    const cell = await page.waitForSelector("td.col-error .text-error");
    // The fixture's error is short: lengthen it in place, as a real stack-bearing one would be.
    await cell.evaluate((el: any) => {
      el.textContent = "a very long failure message ".repeat(20);
    });
    const box = await cell.evaluate((el: any) => {
      const style = (globalThis as any).getComputedStyle(el);
      return {
        overflow: style.textOverflow,
        clipped: el.scrollWidth > el.clientWidth,
        width: el.getBoundingClientRect().width,
      };
    });
    expect(box).toMatchObject({ overflow: "ellipsis", clipped: true });
    expect(box.width).toBeLessThanOrEqual(260);
  });

  it("words a dead-lettered task's branch output and the register dialog's pool plainly", async () => {
    const run = (await s.call("GET", `/api/runs/${failed}`)).body;
    const task = run.tasks[0].id;
    const page = await openConsole(browser, s, `/runs/${failed}?task=${task}`);
    const row = page.locator(".kv-row:has(dt:text-is('Branch output')) dd");
    expect(await row.textContent()).toBe("none: it failed for good");
    expect(await page.locator(".kv-row dt:text-is('Terminal')").count()).toBe(0);

    await page.goto(`${s.url}/workflows`);
    await page.click("button:has-text('Register workflow')");
    const options = await page.locator("dialog select[name=pool] option").allTextContents();
    expect(options[0]).toBe("the workflow's own pool (else default)");
    expect(options).not.toContain("default pool");
  });

  it("asks before retrying a done task, saying what will happen", async () => {
    const id = await submitRun(s, "chain", "done");
    const run = await eventually(async () => {
      const body = (await s.call("GET", `/api/runs/${id}`)).body;
      return body.status === "completed" ? body : undefined;
    }, "the run to finish");
    const task = run.tasks[0];
    const page = await openConsole(browser, s, `/runs/${id}?task=${task.id}`);
    await page.click(".drawer button:has-text('Retry')");
    const dialog = page.locator("dialog[open]");
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("happens again");
    await dialog.locator('button:has-text("Don\'t run it again")').click();
    await page.waitForSelector("dialog", { state: "detached" });
    const after = (await s.call("GET", `/api/runs/${id}`)).body;
    expect(after.tasks.length).toBe(run.tasks.length);
    expect(after.status).toBe("completed");
  });
});
