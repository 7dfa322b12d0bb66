// A run's page in a browser: the live graph (node states, the join's arrivals, edge counts),
// operator notes in the work log, markdown rendered without running what it smuggles in, and
// an agent transcript streaming into the task drawer.
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

const node = (name: string) => `.gnode[data-node="${name}"]`;

/** A chain run whose first attempt has dead-lettered ("fail" fails it), and that attempt. */
async function deadLetteredRun() {
  const id = await submitRun(s, "chain", "fail");
  const failed = await eventually(async () => {
    const run = (await s.call("GET", `/api/runs/${id}`)).body;
    return run.tasks?.[0]?.status === "dead_letter" ? run.tasks[0] : undefined;
  }, "the attempt to dead-letter");
  return { id, failed };
}

describe("the run page", () => {
  it("draws the graph live: node states, the join's arrivals, edge traversals", async () => {
    // "hold" keeps one of the three branches busy, so the join waits with 2 of 3 arrived.
    const id = await submitRun(s, "showcase", "alpha hold beta");
    const page = await openConsole(browser, s, `/runs/${id}`);
    await page.waitForSelector(`${node("intake")}[data-state=done]`);
    await page.waitForSelector(`${node("review")}[data-state=in_progress]`);
    await page.waitForSelector(`${node("merge")} [data-arrivals="2/3"]`);
    expect(await page.textContent(node("review"))).toContain("3 branches");
    expect(await page.textContent(".react-flow__edges, .react-flow")).toContain("×3");
    await shot(page, "run-graph");
    // Cancelling ends the held branch; the graph follows without a reload.
    await s.call("POST", `/api/runs/${id}/cancel`);
    await page.waitForSelector(
      `${node("review")}[data-state=done], ${node("review")}[data-state=cancelled]`,
    );
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("opens a node's drawer when its card is clicked with the mouse", async () => {
    const id = await submitRun(s, "chain", "clicked");
    const page = await openConsole(browser, s, `/runs/${id}`);
    await page.waitForSelector(`${node("second")}[data-state=done]`);
    // A real click at the card's centre: it must land on the card, not on the pane under it.
    const box = (await page.locator(`${node("second")} .gnode-body`).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await page.waitForURL(/[?&]node=second/);
    await page.locator(".drawer").getByText("second").first().waitFor();
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("moves the focus into a drawer opened with the keyboard, and back on close", async () => {
    const id = await submitRun(s, "chain", "keyboard");
    await eventually(
      async () => (await s.call("GET", `/api/runs/${id}`)).body.status === "completed",
      "the run to complete",
    );
    const page = await openConsole(browser, s, `/runs/${id}`);
    const first = (await s.call("GET", `/api/runs/${id}`)).body.tasks[0].id;
    const link = page.locator(`tr[data-task-id="${first}"] .col-id button.link-btn`);
    const inDrawer = page.locator(".drawer :focus");
    const linkFocused = page.locator(`tr[data-task-id="${first}"] .col-id button.link-btn:focus`);
    // Enter on the task's id opens its drawer with the focus in it; Escape gives it back.
    await link.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector(".drawer[aria-label=Task]");
    await inDrawer.waitFor();
    await page.keyboard.press("Escape");
    await page.waitForSelector(".drawer", { state: "detached" });
    await linkFocused.waitFor();
    // The same through the drawer's ×, reached with Tab.
    await page.keyboard.press("Enter");
    await inDrawer.waitFor();
    await page.keyboard.press("Tab");
    expect(await page.locator(".drawer button[aria-label=Close]:focus").count()).toBe(1);
    await page.keyboard.press("Enter");
    await page.waitForSelector(".drawer", { state: "detached" });
    await linkFocused.waitFor();
    // A graph node's drawer does the same.
    const card = page.locator(`${node("second")} .gnode-body`);
    await card.focus();
    await page.keyboard.press("Enter");
    await page.waitForSelector(".drawer[aria-label=Node]");
    await inDrawer.waitFor();
    await page.keyboard.press("Escape");
    await page.waitForSelector(".drawer", { state: "detached" });
    await page.locator(`${node("second")} .gnode-body:focus`).waitFor();
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("adds an operator note to the work log", async () => {
    const id = await submitRun(s, "chain", "noted");
    const page = await openConsole(browser, s, `/runs/${id}?tab=log`);
    await page.waitForSelector(".log-entry:has-text('first saw noted')");
    await page.fill("textarea[name=note]", "Checked by **ops**");
    await page.click("button:has-text('Add note')");
    const entry = page.locator(".log-entry.log-user");
    await entry.waitFor();
    expect(await entry.locator("strong").textContent()).toBe("ops");
    const log = (await s.call("GET", `/api/runs/${id}/log`)).body as any[];
    expect(log.at(-1)).toMatchObject({ author: "user", text: "Checked by **ops**" });
    await shot(page, "run-log");
    await page.close();
  }, 60_000);

  it("renders markdown in the log but runs no script it carries", async () => {
    const id = await submitRun(s, "chain", "hostile");
    const payload = [
      "**bold** and `code`",
      '<img src="x" onerror="window.__pwned = 1">',
      "<script>window.__pwned = 2</script>",
      '[link](javascript:window.__pwned=3) <a href="#" onclick="window.__pwned=4">a</a>',
    ].join("\n\n");
    await s.call("POST", `/api/runs/${id}/log`, { text: payload });
    const page = await openConsole(browser, s, `/runs/${id}?tab=log`);
    const entry = page.locator(".log-entry.log-user .log-text");
    await entry.waitFor();
    expect(await entry.locator("strong").textContent()).toBe("bold");
    expect(await entry.locator("code").textContent()).toBe("code");
    const html = await entry.innerHTML();
    expect(html).not.toMatch(/onerror|onclick|<script|javascript:/i);
    await page.click(".log-entry.log-user a:has-text('link')").catch(() => {});
    await page.click(".log-entry.log-user a:has-text('a')").catch(() => {});
    expect(await page.evaluate(() => (globalThis as any).__pwned)).toBeUndefined();
    await page.close();
  }, 60_000);

  it("streams an agent transcript into the task drawer", async () => {
    const script = {
      turns: [
        [
          { thought: "Planning the summary." },
          { text: "Reading the report.\n" },
          { sleep: 700 },
          {
            tool: { id: "t1", title: "Read report.md", kind: "read", input: { path: "report.md" } },
          },
          { sleep: 700 },
          { text: "Revenue rose **12%**." },
          { submit: { summary: "up 12%" } },
        ],
      ],
    };
    const id = await submitRun(s, "scribe", "summarise", JSON.stringify(script));
    const task = await eventually(async () => {
      const run = (await s.call("GET", `/api/runs/${id}`)).body;
      return run.tasks?.[0]?.status === "in_progress" ? run.tasks[0] : undefined;
    }, "the agent's attempt to start");
    const page = await openConsole(browser, s, `/runs/${id}?task=${task.id}`);
    await page.click(".drawer [data-tab=transcript]");
    await page.waitForSelector(".chunk[data-chunk=thought]");
    await page.waitForSelector(".chunk[data-chunk=tool_call]");
    await page.waitForSelector(".chunk[data-chunk=text] strong:has-text('12%')");
    await page.waitForSelector(".drawer .conn-idle");
    await shot(page, "transcript");
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("retries a dead-lettered task from the drawer", async () => {
    const { id, failed } = await deadLetteredRun();
    const page = await openConsole(browser, s, `/runs/${id}?task=${failed.id}`);
    await page.click(".drawer button:has-text('Retry')");
    await eventually(async () => {
      const run = (await s.call("GET", `/api/runs/${id}`)).body;
      return run.tasks.length === 2 && run.tasks[1].attempt === 2;
    }, "a second attempt");
    await page.waitForSelector(
      `tr[data-task-id="${failed.id + 1}"], .tasks-table tbody tr:nth-child(2)`,
    );
    await page.close();
  }, 60_000);

  it("moves a stopped task from the drawer and says where its payload went", async () => {
    const { id, failed } = await deadLetteredRun();
    const page = await openConsole(browser, s, `/runs/${id}?task=${failed.id}`);
    await page.click(".drawer button:has-text('Move…')");
    await page.selectOption("dialog[open] select", "third");
    await page.click("dialog[open] button[type=submit]");
    const toast = page.locator(".toast:has-text('Moved to third as task #')");
    await toast.waitFor();
    const moved = Number(/#(\d+)/.exec((await toast.textContent())!)![1]);
    expect((await s.call("GET", `/api/tasks/${moved}`)).body).toMatchObject({ node: "third" });
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
