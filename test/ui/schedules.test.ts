// The Schedules page: a configured schedule listed with its cron, time zone and next fire; the
// enable toggle disables it over the API; a fired schedule links its last run.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { serverDir } from "../support/serve.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { openConsole } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

const FLOW = `import { workflow } from "yardmaster";
export const tick = workflow("tick");
tick.node({ start: true }, async function a({}, payload) {
  return payload;
});
`;

const dir = serverDir("ui-schedules-");
let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  const file = join(dir, "tick.ts");
  writeFileSync(file, FLOW);
  const rows = [
    `[workflows.tick]\ntarget = "${file}:tick"`,
    `[schedules.every-second]\nworkflow = "tick"\ncron = "* * * * * *"\ntitle = "Tick"`,
    `[schedules.nightly]\nworkflow = "tick"\ncron = "0 3 * * *"\ntimezone = "Europe/Paris"\ntitle = "N"`,
  ].join("\n\n");
  s = await startTestServer(defaultToml(`${rows}\n`));
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the Schedules page", () => {
  it("lists schedules with next and last fire, links the last run, and toggles enabled", async () => {
    await eventually(
      async () => (await s.call("GET", "/api/schedules/every-second")).body.last_run_id,
      "a fire",
    );
    const page = await openConsole(browser, s);
    await page.click("nav >> text=Schedules");
    const nightly = page.locator("tr[data-schedule=nightly]");
    await nightly.waitFor();
    expect(await nightly.textContent()).toContain("Europe/Paris");
    await page.locator("tr[data-schedule=every-second] a[href^='/runs/']").waitFor();
    await nightly.locator("input[type=checkbox]").click();
    await eventually(
      async () => (await s.call("GET", "/api/schedules/nightly")).body.enabled === false,
      "disabled",
    );
  }, 60_000);
});
