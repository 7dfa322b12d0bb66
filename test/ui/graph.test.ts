// How the graph draws a loop, on the example approval workflow (draft → revise → draft → ship):
// the revise → draft back-edge goes round the other cards of the columns it spans, not through
// `ship`, which sits between draft and revise.
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "../support/browser.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { openConsole, shot, submitRun } from "../support/ui-console.ts";
import { eventually } from "../support/wait.ts";

const APPROVAL = join(import.meta.dirname, "..", "..", "examples", "approval.ts");

let s: TestServer;
let browser: Browser;
beforeAll(async () => {
  s = await startTestServer(
    defaultToml(`[workflows.approval]\ntarget = ${JSON.stringify(`${APPROVAL}:approval`)}\n`),
  );
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
});

/** Answers the run's next pending request with `body`. */
async function answerNext(runId: string, body: Record<string, unknown>) {
  const request = await eventually(async () => {
    const list = (await s.call("GET", `/api/requests?pending=true&run=${runId}`)).body as any[];
    return list[0];
  }, "a pending request");
  const res = await s.call("POST", `/api/requests/${request.id}/answer`, body);
  expect(res.status).toBe(200);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Whether two boxes overlap (touching edges do not count). */
const overlap = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) > Math.max(a.x, b.x) &&
  Math.min(a.y + a.height, b.y + b.height) > Math.max(a.y, b.y);

/** Whether two boxes overlap or nearly touch (an edge ends on a handle, just off the card). */
const near = (a: Box, b: Box) =>
  Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) >= -4 &&
  Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) >= -4;

describe("a loop in the graph", () => {
  it("routes the back-edge around the cards between its ends", async () => {
    const id = await submitRun(s, "approval", "Release notes", "v2 notes");
    await answerNext(id, { option_id: "revise" });
    await answerNext(id, { value: "add the changelog" });
    await answerNext(id, { option_id: "ship" });
    await eventually(
      async () => (await s.call("GET", `/api/runs/${id}`)).body.status === "completed",
      "the run to complete",
    );
    const page = await openConsole(browser, s, `/runs/${id}`);
    await page.waitForSelector(".gnode[data-node=ship][data-state=done]");
    const edge = page.locator(".react-flow__edge.edge-back");
    expect(await edge.count()).toBe(1);
    expect(await edge.textContent()).toContain("×1");
    // In the graph's own coordinates: the path's geometry (getBBox: a screen box of an SVG
    // path adds a margin for the stroke's miters) and each card's place and size.
    const { path, boxes } = await page.evaluate(() => {
      const doc = (globalThis as any).document;
      const b = doc.querySelector(".edge-back path.react-flow__edge-path").getBBox();
      const boxes: Record<string, Box> = {};
      for (const el of doc.querySelectorAll(".react-flow__node")) {
        const [x, y] = /translate\(([-\d.]+)px, ([-\d.]+)px\)/.exec(el.style.transform)!.slice(1);
        boxes[el.dataset.id] = { x: +x, y: +y, width: el.offsetWidth, height: el.offsetHeight };
      }
      return { path: { x: b.x, y: b.y, width: b.width, height: b.height }, boxes };
    });
    await shot(page, "graph-loop");
    // The straight way from revise down to draft's row runs through ship; the edge must not.
    for (const name of ["ship", "drop"])
      expect({ name, crosses: overlap(path, boxes[name]) }).toEqual({ name, crosses: false });
    // And it does reach both of its ends.
    expect(near(path, boxes.revise) && near(path, boxes.draft)).toBe(true);
    expect(page.errors).toEqual([]);
    await page.close();
  }, 60_000);
});
