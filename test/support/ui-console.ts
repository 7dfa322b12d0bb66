// The operator console in a real browser against a real server: a configuration that also
// registers the UI fixtures (test/fixtures/ui/showcase.ts) and the scripted ACP agent, pages
// that record script errors, and bounded waits. Screenshots go to /tmp for a person to look at.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { SCRIPTED_AGENT } from "./agent-server.ts";
import { defaultToml, type TestServer } from "./server-harness.ts";

export const SHOWCASE = join(import.meta.dirname, "..", "fixtures", "ui", "showcase.ts");

/** chain, fan and asker (as every e2e server) plus showcase, scribe, approval and an agent. */
export function consoleToml(serverExtra = ""): string {
  const rows = ["showcase", "scribe", "approval"].flatMap((name) => [
    `[workflows.${name}]`,
    `target = "${SHOWCASE}:${name}"`,
    "",
  ]);
  const agent = [
    "[agents.default]",
    `command = [${JSON.stringify(process.execPath)}, ${JSON.stringify(SCRIPTED_AGENT)}]`,
  ];
  const toml = defaultToml([...rows, ...agent].join("\n"));
  return serverExtra ? toml.replace("port = 0", `port = 0\n${serverExtra}`) : toml;
}

export interface ConsolePage extends Page {
  /** Uncaught errors of the page's scripts since it opened. */
  errors: string[];
}

export async function openConsole(
  browser: Browser,
  s: TestServer,
  path = "/runs",
  viewport = { width: 1440, height: 900 },
): Promise<ConsolePage> {
  const page = (await browser.newPage({ viewport })) as ConsolePage;
  page.errors = [];
  page.on("pageerror", (err) => page.errors.push(String(err)));
  page.setDefaultTimeout(15_000);
  await page.goto(s.url + path);
  await page.waitForSelector(".shell");
  return page;
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `/tmp/ym-ui-${name}.png` });
}

export async function submitRun(s: TestServer, workflow: string, title: string, description = "") {
  const res = await s.call("POST", `/api/workflows/${workflow}/runs`, { title, description });
  if (res.status !== 201) throw new Error(`submit failed: ${JSON.stringify(res.body)}`);
  return res.body.run_id as string;
}
