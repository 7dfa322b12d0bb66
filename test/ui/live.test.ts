// The console across a server restart: the one event stream reconnects by itself, the new
// `started_at` from /api/me makes it refetch everything (workflows and plugin manifest
// included), and the page shows the restarted server's state without a reload.
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { openConsole, SHOWCASE } from "../support/ui-console.ts";

let browser: Browser;
let dir: string;
const servers: TestServer[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

function toml(port: number, extra = ""): string {
  const store = `store = "sqlite:${join(dir, "store.db")}"`;
  return defaultToml(extra).replace("port = 0", `port = ${port}\n${store}`);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-ui-live-"));
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const s of servers) await s.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

describe("live updates across a restart", () => {
  it("reconnects and refetches workflows and plugins from the restarted server", async () => {
    const port = await freePort();
    const first = await startTestServer(toml(port));
    servers.push(first);
    const page = await openConsole(browser, first, "/workflows");
    await page.waitForSelector("tr[data-workflow=chain]");
    await page.waitForSelector(".conn[data-connection=live]");
    expect(await page.locator("tr[data-workflow=showcase]").count()).toBe(0);
    await page.evaluate(() => {
      (globalThis as any).__sameDocument = true;
    });
    await first.close();
    servers.pop();
    const second = await startTestServer(
      toml(port, `[workflows.showcase]\ntarget = "${SHOWCASE}:showcase"\n`),
    );
    servers.push(second);
    await page.waitForSelector("tr[data-workflow=showcase]", { timeout: 20_000 });
    await page.waitForSelector("nav a:has-text('Panels')");
    await page.waitForSelector(".conn[data-connection=live]");
    expect(await page.evaluate(() => (globalThis as any).__sameDocument)).toBe(true);
    await page.close();
  }, 60_000);
});
