// A quiet DevTools console: an operator walks every screen (runs, a completed, a waiting and a
// fanned-out run, drawers, the graph, the log with hostile markdown, the inbox, workflows and
// their source, plugin panels, the phone menu) and the browser reports nothing: no console
// error or warning, no script error, no failed request and no refusal. Noise hides real
// problems, so only what a test provokes on purpose is let through, named where it is.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import {
  type Noise,
  openQuiet,
  openRun,
  type QuietOptions,
  settle,
  unexpected,
} from "../support/console-noise.ts";
import { FLOWS, startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
let browser: Browser;
const runs: Record<string, string> = {};

const status = async (id: string) => (await s.call("GET", `/api/runs/${id}`)).body.status;
const settled = (id: string, want: string) =>
  eventually(async () => (await status(id)) === want, `run ${id} to be ${want}`);
const pending = (id: string) =>
  eventually(async () => {
    const list = (await s.call("GET", `/api/requests?pending=true&run=${id}`)).body as any[];
    return list[0];
  }, `a pending request of ${id}`);

beforeAll(async () => {
  s = await startTestServer(consoleToml());
  browser = await launchBrowser();
  runs.chain = await submitRun(s, "chain", "quiet");
  runs.fan = await submitRun(s, "fan", "a,b,c");
  runs.showcase = await submitRun(s, "showcase", "alpha beta");
  runs.asker = await submitRun(s, "asker", "ship it?");
  runs.approval = await submitRun(s, "approval", "new chairs");
  const script = { turns: [[{ thought: "Plan." }, { text: "Done **now**." }, { submit: {} }]] };
  runs.scribe = await submitRun(s, "scribe", "summarise", JSON.stringify(script));
  for (const name of ["chain", "fan", "showcase", "scribe"]) await settled(runs[name], "completed");
  for (const name of ["asker", "approval"]) await pending(runs[name]);
  // A log entry in markdown that carries HTML the sanitizer has to strip.
  const hostile = [
    "**bold** and `code` and a [link](https://example.org/)",
    '<img src="x" onerror="window.__pwned = 1"> <img src="/favicon.svg" alt="logo">',
    "<script>window.__pwned = 2</script>",
    '<a href="javascript:window.__pwned=3">js</a> <a href="#" onclick="window.__pwned=4">h</a>',
    '<style>body { display: none }</style><span style="color: red">styled</span>',
    "![a remote chart](https://example.org/chart.png)",
  ].join("\n\n");
  await s.call("POST", `/api/runs/${runs.chain}/log`, { text: hostile });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const quietPage = (path: string, options?: QuietOptions) => openQuiet(browser, s, path, options);

const node = (name: string) => `.gnode[data-node="${name}"]`;

describe("a quiet browser console", () => {
  it("stays quiet over the runs list, a completed run, its drawers, tabs and log", async () => {
    const { page, noise } = await quietPage("/runs?view=history");
    await page.waitForSelector(`tr[data-run-id="${runs.chain}"]`);
    await openRun(page, runs.chain);
    await page.waitForSelector(`${node("third")}[data-state=done]`);
    // The task drawer, opened from the tasks table and closed with its ×.
    await page.click(".tasks-table tbody tr:first-child .col-id button");
    await page.waitForSelector(".drawer[aria-label=Task]");
    await page.click(".drawer [data-tab=transcript]");
    await page.click(".drawer [data-tab=submissions]");
    await page.click(".drawer button[aria-label=Close]");
    await page.waitForSelector(".drawer", { state: "detached" });
    // A node's drawer, from its card in the graph, closed with Escape.
    await page.click(`${node("second")} .gnode-body`);
    await page.waitForSelector(".drawer[aria-label=Node]");
    await page.keyboard.press("Escape");
    await page.waitForSelector(".drawer", { state: "detached" });
    // The log with markdown, some of it hostile; then requests and events.
    await page.click("[data-tab=log]");
    await page.waitForSelector(".log-entry.log-user .log-text strong:has-text('bold')");

    await page.fill("textarea[name=note]", "All *quiet*");
    await page.click("button:has-text('Add note')");
    await page.waitForSelector(".log-entry.log-user em:has-text('quiet')");
    await page.click("[data-tab=requests]");
    await page.click("[data-tab=events]");
    await page.waitForSelector(".events-table code.ev");
    await settle(page);
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    expect(unexpected(noise)).toEqual([]);
    // The remote image is not requested (the policy would refuse it); its alt text stands in.
    await page.click("[data-tab=log]");
    const remote = page.locator(".log-entry.log-user img[alt='a remote chart']");
    expect(await remote.getAttribute("src")).toBeNull();
    expect(await remote.getAttribute("title")).toBe("https://example.org/chart.png");
    await page.close();
  }, 60_000);

  it("stays quiet over runs waiting on a person, a fan-out and a transcript", async () => {
    const { page, noise } = await quietPage(`/runs/${runs.asker}`);
    await page.waitForSelector(`${node("decide")}[data-state=waiting]`);
    await page.click("[data-tab=requests]");
    await page.waitForSelector(".request button[data-option=go]");
    await page.click(`${node("decide")} .gnode-body`);
    await page.waitForSelector(".drawer[aria-label=Node]");
    await page.keyboard.press("Escape");
    await openRun(page, runs.approval);
    await page.waitForSelector(`${node("approve")}[data-state=waiting]`);
    await openRun(page, runs.fan);
    await page.waitForSelector(`${node("gather")}[data-state=done]`);
    await page.click(`${node("part")} .gnode-body`);
    await page.waitForSelector(".drawer[aria-label=Node]");
    await page.keyboard.press("Escape");
    await openRun(page, runs.scribe);
    await page.click(".tasks-table tbody tr:first-child .col-id button");
    await page.click(".drawer [data-tab=transcript]");
    await page.waitForSelector(".chunk[data-chunk=text] strong:has-text('now')");
    await page.keyboard.press("Escape");
    await settle(page);
    expect(unexpected(noise)).toEqual([]);
    await page.close();
  }, 60_000);

  it("stays quiet over a run whose workflow is removed while it is on screen", async () => {
    const added = await s.call("POST", "/api/workflows", { target: `${FLOWS}:late` });
    expect(added.status).toBe(201);
    const id = await submitRun(s, "late", "0");
    await pending(id);
    const { page, noise } = await quietPage("/runs");
    await openRun(page, id);
    await page.waitForSelector(`${node("nap")}[data-state=waiting]`);
    // Another operator removes the workflow: the run stays, its graph cannot be drawn, and the
    // page says so without a reload.
    expect((await s.call("DELETE", "/api/workflows/late")).status).toBe(200);
    const live = await page
      .waitForSelector(".run-head .chip:has-text('workflow unregistered')", { timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    // Opened again from the list, it is known to be unregistered before anything is asked.
    await page.click("nav[aria-label=Main] a:has-text('Runs')");
    await page.waitForSelector(`tr[data-run-id="${id}"] .chip:has-text('unregistered')`);
    await openRun(page, id);
    await page.click("[data-tab=events]");
    await page.waitForSelector(".events-table code.ev");
    await settle(page);
    expect(unexpected(noise)).toEqual([]);
    expect(live).toBe(true);
    expect(await page.locator(".run-head .chip:has-text('workflow unregistered')").count()).toBe(1);
    expect(await page.locator(".graph-empty[data-graph=unregistered]").count()).toBe(1);
    await page.close();
  }, 60_000);

  it("stays quiet in the inbox while a request is answered", async () => {
    const request = await pending(runs.approval);
    const { page, noise } = await quietPage("/inbox");
    const card = `[data-request-id="${request.id}"]`;
    await page.waitForSelector(`${card} .schema-form`);
    await page.fill(`${card} input#root_approver`, "Dana");
    await page.fill(`${card} input#root_budget`, "300");
    await page.click(`${card} .schema-form button[type=submit]`);
    await page.waitForSelector(card, { state: "detached" });
    await settled(runs.approval, "completed");
    await settle(page);
    expect(unexpected(noise)).toEqual([]);
    await page.close();
  }, 60_000);

  it("stays quiet over the workflows, a workflow's graph and its source", async () => {
    const { page, noise } = await quietPage("/workflows");
    for (const name of ["fan", "showcase"]) {
      await page.click(`tr[data-workflow=${name}] a`);
      await page.waitForSelector(".gnode");
      await page.click("[data-tab=source]");
      await page.waitForSelector(".code-line.node-line, [data-source=missing]");
      await page.click("[data-tab=plugin]");
      await page.click(".crumbs a:has-text('Workflows')");
      await page.waitForSelector(`tr[data-workflow=${name}]`);
    }
    // A target typed wrong is refused, on purpose here: that refusal is the one line expected.
    await page.click("button:has-text('Register workflow')");
    await page.fill("dialog input[name=target]", "/nowhere/missing.ts:flow");
    await page.click("dialog button[type=submit]");
    await page.waitForSelector("dialog [data-code=workflow_load_failed]");
    await page.keyboard.press("Escape");
    await settle(page);
    const refused = (n: Noise) =>
      n.text === "422 POST /api/workflows" ||
      (n.text.includes("status of 422") && n.text.endsWith("(/api/workflows)"));
    expect(noise.filter(refused)).toHaveLength(2);
    expect(unexpected(noise, refused)).toEqual([]);
    await page.close();
  }, 60_000);

  it("stays quiet over plugin panels in every slot", async () => {
    // A node drawer opened from its link: its task-scoped panel waits for the node's last
    // attempt, which the graph names (slowed down here, as on a busy server).
    const { page, noise } = await quietPage(`/runs/${runs.showcase}?node=review`, {
      before: (page) =>
        page.route("**/api/runs/*/graph", async (route) => {
          await new Promise((r) => setTimeout(r, 800));
          await route.continue().catch(() => {});
        }),
    });
    await page.waitForSelector('[data-panel="review_viz"] showcase-viz .showcase-viz');
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.keyboard.press("Escape");
    await page.waitForSelector('[data-panel="summary"] .markdown strong');
    await page.waitForSelector('[data-panel="durations"] svg rect');
    for (const pane of ["attempts", "activity", "annotate_form"])
      await page.click(`[data-tab='panel:showcase:${pane}']`);
    await page.waitForSelector('[data-panel="annotate_form"] .schema-form');
    await page.click(`${node("review")} .gnode-body`);
    await page.waitForSelector('[data-panel="review_viz"] showcase-viz .showcase-viz');
    await page.keyboard.press("Escape");
    await page.click("nav[aria-label=Main] a:has-text('Panels')");
    await page.waitForSelector('[data-panel="throughput"] svg path');
    await page.waitForSelector('[data-panel="overview"] .metric');
    await settle(page);
    expect(unexpected(noise)).toEqual([]);
    await page.close();
  }, 60_000);

  it("stays quiet on a phone, through the folded menu", async () => {
    const { page, noise } = await quietPage("/runs", { viewport: { width: 390, height: 844 } });
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const name of ["Inbox", "Workflows", "Runs"]) {
      await page.getByRole("button", { name: "Menu" }).click();
      await nav.getByRole("link", { name }).click();
      await nav.getByRole("link", { name }).waitFor({ state: "hidden" });
    }
    await page.getByRole("button", { name: "Menu" }).click();
    await page.keyboard.press("Escape");
    await settle(page);
    expect(unexpected(noise)).toEqual([]);
    await page.close();
  }, 60_000);
});
