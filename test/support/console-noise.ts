// Everything a person would see in the browser's DevTools console while using the console:
// console errors and warnings (the browser's own "Failed to load resource" and CSP lines come
// through here too), uncaught script errors, failed requests and refusals (status >= 400).
import type { Browser, Page } from "playwright-core";
import type { TestServer } from "./server-harness.ts";

export interface Noise {
  kind: "console" | "pageerror" | "requestfailed" | "response";
  text: string;
}

/** A request the test itself provoked on purpose, to leave out of the noise. */
export type Expected = (noise: Noise) => boolean;

const path = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

export function recordNoise(page: Page, into: Noise[]): void {
  page.on("console", (m) => {
    if (m.type() !== "error" && m.type() !== "warning") return;
    const where = m.location().url ? ` (${path(m.location().url)})` : "";
    into.push({ kind: "console", text: `${m.type()}: ${m.text()}${where}` });
  });
  page.on("pageerror", (err) => into.push({ kind: "pageerror", text: String(err) }));
  page.on("requestfailed", (r) => {
    into.push({
      kind: "requestfailed",
      text: `${r.method()} ${path(r.url())}: ${r.failure()?.errorText}`,
    });
  });
  page.on("response", (r) => {
    if (r.status() < 400) return;
    into.push({ kind: "response", text: `${r.status()} ${r.request().method()} ${path(r.url())}` });
  });
}

/** The noise not explained by one of `expected`. */
export const unexpected = (noise: Noise[], ...expected: Expected[]) =>
  noise.filter((n) => !expected.some((e) => e(n)));

export interface QuietOptions {
  viewport?: { width: number; height: number };
  /** Runs before the first request (to route one, say). */
  before?: (page: Page) => Promise<unknown>;
}

/** Opens the console on `path` with every kind of noise recorded from the first request. */
export async function openQuiet(
  browser: Browser,
  s: TestServer,
  path: string,
  { viewport = { width: 1440, height: 900 }, before }: QuietOptions = {},
): Promise<{ page: Page; noise: Noise[] }> {
  const noise: Noise[] = [];
  const page = await browser.newPage({ viewport });
  page.setDefaultTimeout(15_000);
  recordNoise(page, noise);
  await before?.(page);
  await page.goto(s.url + path);
  await page.waitForSelector(".shell");
  await page.waitForSelector(".conn[data-connection=live]");
  return { page, noise };
}

/**
 * Goes to a run through the navigation and the runs list, as a person would (no reload): in the
 * Queue view while it is open, else (an ended run) in the History view.
 */
export async function openRun(page: Page, id: string): Promise<void> {
  await page.click("nav[aria-label=Main] a:has-text('Runs')");
  const row = page.locator(`tr[data-run-id="${id}"] a.run-link`);
  try {
    await row.waitFor({ timeout: 5000 });
  } catch {
    await page.click("[data-view=history]");
  }
  await row.click();
  await page.waitForSelector(".run-head");
}

/** Lets late refetches land before the noise is read. */
export const settle = (page: Page) => page.waitForTimeout(600);
