// Plugin panels in a browser, from the showcase fixture: every kind in its slot and placement,
// a form panel calling its action, a custom element loaded from the plugin's asset, a refresh
// on the panel's `refresh_on` event, and a placeholder for a kind this console does not know.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
let browser: Browser;
let runId: string;
beforeAll(async () => {
  s = await startTestServer(consoleToml());
  browser = await launchBrowser();
  runId = await submitRun(s, "showcase", "alpha beta");
  await eventually(
    async () => (await s.call("GET", `/api/runs/${runId}`)).body.status === "completed",
    "the run",
  );
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

const panel = (name: string) => `[data-panel="${name}"]`;

describe("plugin panels", () => {
  it("draws run cards (markdown, kv, chart) and panes (table, log)", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}`);
    await page.waitForSelector(`${panel("summary")} .markdown strong:has-text('4 attempts')`);
    await page.waitForSelector(`${panel("facts")} .kv-row:has-text('completed')`);
    await page.waitForSelector(`${panel("durations")} svg rect`);
    await page.click("[data-tab='panel:showcase:attempts']");
    await page.waitForSelector(`${panel("attempts")} td:has-text('merge')`);
    await page.click("[data-tab='panel:showcase:activity']");
    await page.waitForSelector(`${panel("activity")} .line:has-text('Merged 2 review(s)')`);
    await shot(page, "plugins-run");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows what a pane missed while another tab was open", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}?tab=panel:showcase:activity`);
    await page.waitForSelector(`${panel("activity")} .line:has-text('Merged 2 review(s)')`);
    await page.click("[data-tab=tasks]");
    await s.call("POST", `/api/runs/${runId}/log`, { text: "noted while hidden" });
    // The facts card counts log entries live: once it shows the new count, the console has
    // had the event, while the pane was off screen.
    const entries = ((await s.call("GET", `/api/runs/${runId}/log`)).body as unknown[]).length;
    await page.waitForSelector(`${panel("facts")} .kv-row:has-text('${entries}')`);
    await page.click("[data-tab='panel:showcase:activity']");
    await page.waitForSelector(`${panel("activity")} .line:has-text('noted while hidden')`, {
      timeout: 10_000,
    });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("calls a form panel's action and refreshes the panels that follow its event", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}?tab=panel:showcase:annotate_form`);
    await page.waitForSelector(`${panel("annotate_form")} .schema-form`);
    await page.fill(`${panel("annotate_form")} input#root_note`, "looks fine");
    await page.click(`${panel("annotate_form")} button[type=submit]`);
    await page.waitForSelector(`${panel("annotate_form")} [data-action-result]`);
    const log = (await s.call("GET", `/api/runs/${runId}/log`)).body as any[];
    expect(log.at(-1)).toMatchObject({ author: "user", text: "looks fine" });
    // facts follows log.*: its log count moves without a reload.
    await page.waitForSelector(`${panel("facts")} .kv-row:has-text('${log.length}')`);
    await page.close();
  }, 60_000);

  it("loads a custom panel's element in the node slot", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}?node=review`);
    await page.waitForSelector(`${panel("review_viz")} showcase-viz .showcase-viz`);
    expect(await page.textContent(`${panel("review_viz")} .showcase-viz`)).toMatch(
      /^showcase: attempt #\d+ of review: done$/,
    );
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("draws workflow and global panels, and refreshes a dashboard on a plugin event", async () => {
    const page = await openConsole(browser, s, "/workflows/showcase");
    await page.waitForSelector(`${panel("about")}:has-text('reviews each in its own branch')`);
    await page.goto(`${s.url}/panels`);
    await page.waitForSelector(`${panel("throughput")} svg path`);
    const metric = `${panel("overview")} .metric:first-child .metric-value`;
    const before = Number(await page.textContent(metric));
    await s.call("POST", "/api/plugins/showcase/actions/annotate", {
      input: { note: "from the API" },
      scope: { run_id: runId },
    });
    await page.waitForFunction(
      ([sel, n]) =>
        Number((globalThis as any).document.querySelector(sel as string)?.textContent) === n,
      [metric, before + 1],
    );
    await shot(page, "plugins-global");
    await page.close();
  }, 60_000);

  it("shows a placeholder card for a panel kind it does not know", async () => {
    const page = await browser.newPage();
    await page.route("**/api/plugins", async (route) => {
      const res = await route.fetch();
      const manifest = (await res.json()) as any[];
      manifest
        .find((e) => e.workflow === "showcase")
        .panels.push({
          name: "future",
          slot: "global",
          placement: "card",
          kind: "hologram",
          scope: "global",
          source: null,
          node: null,
          element: null,
          refresh_on: [],
        });
      await route.fulfill({ response: res, json: manifest });
    });
    await page.goto(`${s.url}/panels`);
    await page.waitForSelector(`${panel("future")} [data-unknown-kind=hologram]`);
    await page.unrouteAll({ behavior: "ignoreErrors" });
    await page.close();
  }, 60_000);
});

describe("the example showcase", () => {
  it("labels the bars of its Trend chart, a long label shortened with its full text kept", async () => {
    const example = join(import.meta.dirname, "..", "..", "examples", "showcase.ts");
    const ex = await startTestServer(
      defaultToml(`[workflows.showcase]\ntarget = ${JSON.stringify(`${example}:showcase`)}\n`),
    );
    try {
      const id = await submitRun(ex, "showcase", "alpha beta gamma internationalisation");
      await eventually(
        async () => (await ex.call("GET", `/api/runs/${id}`)).body.status === "completed",
        "the run",
      );
      const page = await openConsole(browser, ex, `/runs/${id}?tab=panel:showcase:trend`);
      const chart = `${panel("trend")} svg`;
      await page.waitForSelector(`${chart} rect`);
      const labels = await page.locator(`${chart} .chart-label`).allTextContents();
      expect(labels.slice(0, 3)).toEqual(["alpha", "beta", "gamma"]);
      expect(labels[3]).toMatch(/^internat\w*…$/);
      // Each bar names its category and value in full, for the pointer and for a screen reader.
      const titles = await page.locator(`${chart} rect > title`).allTextContents();
      expect(titles).toEqual(["alpha: 5", "beta: 8", "gamma: 15", "internationalisation: 80"]);
      await shot(page, "plugins-trend");
      expect(page.errors).toEqual([]);
      await page.close();
    } finally {
      await ex.close();
    }
  }, 60_000);
});
