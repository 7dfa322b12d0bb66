// The run's timeline and its durations in a browser: a row per node, a bar per attempt split
// into working, waiting on a person, sleeping and retry backoff, each attempt's outcome as a
// badge with its word; the tasks table, the task drawer and the run's header say how long was
// spent working and how long waiting.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { consoleToml, openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

const TIMELINE = join(import.meta.dirname, "..", "fixtures", "ui", "timeline.ts");

let s: TestServer;
let browser: Browser;
let runId: string;
beforeAll(async () => {
  s = await startTestServer(
    `${consoleToml()}\n[workflows.timeline]\ntarget = "${TIMELINE}:timeline"\n`,
  );
  browser = await launchBrowser();
  runId = await submitRun(s, "timeline", "every kind of time");
  const request = await eventually(async () => {
    const list = (await s.call("GET", `/api/requests?pending=true&run=${runId}`)).body as any[];
    return list[0];
  }, "the request to open");
  // Waiting on a person takes a while: longer than any of the work.
  await new Promise((resolve) => setTimeout(resolve, 1200));
  const answered = await s.call("POST", `/api/requests/${request.id}/answer`, { value: "yes" });
  expect(answered.status).toBe(200);
  await eventually(
    async () => (await s.call("GET", `/api/runs/${runId}`)).body.status === "completed",
    "the run to complete",
  );
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** The phases drawn in the bar of each attempt of `node`, in order, by task id. */
const barsOf = (page: any, node: string) =>
  page.$$eval(`.timeline-row[data-node="${node}"] .timeline-bar`, (bars: any[]) =>
    bars.map((bar) => ({
      task: Number(bar.dataset.taskId),
      status: bar.dataset.status,
      label: bar.getAttribute("aria-label"),
      phases: [...bar.querySelectorAll(".seg")].map((seg: any) => ({
        kind: seg.dataset.phase,
        width: seg.getBoundingClientRect().width,
      })),
    })),
  );

describe("the run timeline", () => {
  it("draws a row per node, a bar per attempt, working and waiting apart, outcomes in words", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}?tab=timeline`);
    await page.waitForSelector(".timeline-row[data-node=nap] .seg-working");
    const rows = await page.$$eval(".timeline-row", (els) => els.map((el: any) => el.dataset.node));
    expect(rows).toEqual(["flaky", "approve", "nap"]);

    // flaky: the first attempt failed, the retry waited out its backoff, then worked.
    const flaky = await barsOf(page, "flaky");
    expect(flaky.map((b: any) => b.status)).toEqual(["failed", "done"]);
    expect(flaky[0].phases.map((p: any) => p.kind)).toContain("working");
    expect(flaky[1].phases.map((p: any) => p.kind)).toContain("backoff");
    expect(flaky[1].label).toMatch(/in retry backoff/);
    // approve: worked, waited on a person (longer than it worked), worked again.
    const [approve] = await barsOf(page, "approve");
    const kinds = approve.phases.map((p: any) => p.kind);
    expect(kinds.filter((k: string) => k !== "queued")).toEqual(["working", "person", "working"]);
    const width = (k: string) =>
      approve.phases.filter((p: any) => p.kind === k).reduce((n: number, p: any) => n + p.width, 0);
    expect(width("person")).toBeGreaterThan(width("working"));
    expect(approve.label).toMatch(/working · \d+ s waiting on a person/);
    // nap: slept between its two stretches of work.
    const [nap] = await barsOf(page, "nap");
    expect(nap.phases.map((p: any) => p.kind)).toContain("sleeping");

    // Outcomes are words (the badge's text), not colour alone.
    const outcomes = await page.$$eval(
      ".timeline-row[data-node=flaky] .timeline-outcome .badge",
      (els) => els.map((el: any) => el.textContent.trim()),
    );
    expect(outcomes).toEqual(["failed", "done"]);
    // A legend names every kind of bar.
    const legend = await page.locator(".timeline-legend").innerText();
    for (const word of ["working", "waiting on a person", "sleeping", "in retry backoff", "queued"])
      expect(legend).toContain(word);
    await shot(page, "timeline");

    // A bar opens its attempt.
    await page.click(`.timeline-bar[data-task-id="${approve.task}"]`);
    await page.waitForSelector(".drawer");
    const took = await page.locator(".drawer .kv-row:has(dt:text-is('Took')) dd").innerText();
    expect(took).toMatch(
      /^\d+ ms working · 1 s waiting on a person$|^\d+ ms working · \d s waiting on a person$/,
    );
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows working and waiting apart in the tasks table and the run's header", async () => {
    const page = await openConsole(browser, s, `/runs/${runId}`);
    const row = page.locator(".tasks-table tr[data-task-id]", { hasText: "approve" });
    await row.locator(".took").filter({ hasText: "waiting on a person" }).waitFor();
    expect(await row.locator(".took").innerText()).toMatch(/ms working · \d s waiting on a person/);
    const nap = page.locator(".tasks-table tr[data-task-id]", { hasText: "nap" });
    expect(await nap.locator(".took").innerText()).toMatch(/working · \d+ m?s sleeping/);
    const head = await page.locator("[data-run-took]").innerText();
    expect(head).toMatch(
      /working · \d s waiting on a person · \d+ m?s sleeping · \d+ m?s in retry backoff/,
    );
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);

  it("follows a run live: the waiting bar ends when the answer comes, the next nodes appear", async () => {
    const id = await submitRun(s, "timeline", "live");
    const page = await openConsole(browser, s, `/runs/${id}?tab=timeline`);
    const approve = page.locator(".timeline-row[data-node=approve]");
    await approve.locator(".seg-person").waitFor();
    expect(await approve.locator(".timeline-outcome .badge").innerText()).toBe("waiting");
    const request = await eventually(async () => {
      const list = (await s.call("GET", `/api/requests?pending=true&run=${id}`)).body as any[];
      return list[0];
    }, "the request to open");
    await s.call("POST", `/api/requests/${request.id}/answer`, { value: "go" });
    await page.waitForSelector(
      ".timeline-row[data-node=nap] .timeline-outcome .badge:text-is('done')",
    );
    expect(await approve.locator(".timeline-outcome .badge").innerText()).toBe("done");
    expect(
      await approve.locator(".seg").evaluateAll((els) => els.map((e: any) => e.dataset.phase)),
    ).toEqual(expect.arrayContaining(["working", "person"]));
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
