// Everything a person would see in the browser's DevTools console while using the console:
// console errors and warnings (the browser's own "Failed to load resource" and CSP lines come
// through here too), uncaught script errors, failed requests and refusals (status >= 400).
import type { Page } from "playwright-core";

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
