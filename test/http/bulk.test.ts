// POST /api/runs/bulk on a real `yardmaster serve`: delete by filter and by ids with refusals
// (an active run, a missing one), cancel in bulk, retry failed re-opening runs that then
// complete, a filter past `limit` answering `more` and a cursor, bad input as a 422 of the
// catalogue; and `[server] retain` deleting ended runs at start.
import type { ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request } from "../support/http-client.ts";
import { killAll, type Served, serve, stop } from "../support/serve.ts";
import { FLOW_ROW, flowFolder } from "../support/serve-folders.ts";
import { openStream } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
let served: Served;
const children: ChildProcess[] = [];

const ROWS = `${FLOW_ROW}[workflows.held]\ntarget = "held.ts:held"\n[workflows.flaky]\ntarget = "flaky.ts:flaky"\n[pools.default]\ncapacity = 8\n`;

beforeAll(async () => {
  dir = flowFolder("ym-bulk-", "", ROWS);
  writeFileSync(
    join(dir, "held.ts"),
    `import { workflow } from "yardmaster";
export const held = workflow("held");
held.node({ start: true }, async function only({}: any, _input: unknown, ctx: any) {
  await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
});
`,
  );
  writeFileSync(
    join(dir, "flaky.ts"),
    `import { existsSync } from "node:fs";
import { join } from "node:path";
import { NonRetryable, workflow } from "yardmaster";
export const flaky = workflow("flaky");
flaky.node({ start: true }, async function only() {
  if (!existsSync(join(${JSON.stringify(dir)}, "fixed"))) throw new NonRetryable("down");
  return "ok";
});
`,
  );
  served = await serve({ dir, children });
}, 60_000);

afterAll(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, path: string, body?: unknown) =>
  request(served.url, method, path, body);
const bulk = (body: unknown) => call("POST", "/api/runs/bulk", body);

async function submit(workflow: string, title = "t"): Promise<string> {
  const res = await call("POST", `/api/workflows/${workflow}/runs`, { title });
  expect(res.status).toBe(201);
  return res.body.run_id;
}

async function statusOf(runId: string): Promise<string> {
  return (await call("GET", `/api/runs/${runId}`)).body.status;
}

async function ended(ids: string[], status: string): Promise<void> {
  for (const id of ids)
    await eventually(async () => (await statusOf(id)) === status, `${id} ${status}`);
}

describe("POST /api/runs/bulk", { timeout: 60_000 }, () => {
  it("deletes by ids, refusing an active run and a missing one, in the order asked", async () => {
    const done = [await submit("flow"), await submit("flow")];
    await ended(done, "completed");
    const active = await submit("held");
    const stream = await openStream(`${served.url}/api/events`);
    const res = await bulk({ action: "delete", run_ids: [done[0], active, "nope", done[1]] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      action: "delete",
      done: 2,
      done_run_ids: done,
      refused: [
        { run_id: active, code: "conflict", message: expect.stringContaining("ended runs only") },
        { run_id: "nope", code: "not_found", message: 'Run "nope" does not exist.' },
      ],
      more: false,
      next_cursor: null,
    });
    expect((await call("GET", `/api/runs/${done[0]}`)).status).toBe(404);
    expect(await statusOf(active)).toBe("running");
    // Event-stream clients see each run go as they see a single delete.
    for (const id of done) {
      const e = await stream.waitFor(
        `run.deleted ${id}`,
        (x) => x.name === "run.deleted" && x.run_id === id,
      );
      expect(e.data).toEqual({ title: "t", workflow: "flow" });
    }
    stream.close();
  });

  it("cancels by filter, then deletes by filter page by page with limit, more and the cursor", async () => {
    const held = [await submit("held", "a"), await submit("held", "b")];
    await ended(held, "running");
    const cancelled = await bulk({ action: "cancel", filter: { workflow: "held" } });
    expect(cancelled.body).toMatchObject({ done: held.length + 1, refused: [], more: false });
    expect(cancelled.body.done_run_ids).toEqual(expect.arrayContaining(held));
    await ended(held, "cancelled");
    const flows = [await submit("flow"), await submit("flow"), await submit("flow")];
    await ended(flows, "completed");
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const res = await bulk({ action: "delete", filter: { workflow: "held" }, limit: 2, cursor });
      expect(res.status).toBe(200);
      seen.push(...res.body.done_run_ids);
      if (!res.body.more) break;
      cursor = res.body.next_cursor;
    }
    expect(seen).toHaveLength(held.length + 1);
    const left = (await call("GET", "/api/runs?workflow=held")).body;
    expect(left).toEqual([]);
    // A filter matches runs created before `before` only.
    const none = await bulk({
      action: "delete",
      filter: { workflow: "flow", before: "2000-01-01T00:00:00Z" },
    });
    expect(none.body).toMatchObject({ done: 0, refused: [], more: false, next_cursor: null });
  });

  it("retries the failed attempts of failed runs, which re-open and complete", async () => {
    const failed = [await submit("flaky"), await submit("flaky")];
    await ended(failed, "failed");
    const ok = await submit("flow");
    await ended([ok], "completed");
    writeFileSync(join(dir, "fixed"), "");
    const res = await bulk({ action: "retry_failed", filter: { workflow: "flaky" } });
    expect(res.body).toMatchObject({ action: "retry_failed", done: 2, refused: [] });
    await ended(failed, "completed");
    const refused = await bulk({ action: "retry_failed", run_ids: [ok] });
    expect(refused.body.refused).toEqual([
      { run_id: ok, code: "conflict", message: `Run ${ok} has no dead-lettered attempt to retry.` },
    ]);
  });

  it("refuses bad input with 422 in the catalogue's shape", async () => {
    const cases: unknown[] = [
      { action: "delete" },
      { action: "delete", run_ids: ["a"], filter: {} },
      { action: "explode", run_ids: ["a"] },
      { action: "delete", run_ids: [] },
      { action: "delete", run_ids: Array.from({ length: 1001 }, (_, i) => `r${i}`) },
      { action: "delete", filter: { before: "yesterday" } },
      { action: "delete", filter: { status: "nope" } },
      { action: "delete", filter: {}, limit: 0 },
      { action: "delete", filter: {}, cursor: "not-a-cursor" },
    ];
    for (const body of cases) {
      const res = await bulk(body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.body).toMatchObject({ code: "validation", error: expect.any(String) });
      expect(res.body.errors[0].loc[0]).toBe("body");
    }
  });
});

describe("[server] retain", { timeout: 60_000 }, () => {
  it("deletes ended runs older than retain at start, and leaves active ones", async () => {
    const active = await submit("held", "stays");
    const old = await submit("flow", "old");
    await ended([old], "completed");
    await stop(served);
    await new Promise((r) => setTimeout(r, 1100));
    writeFileSync(
      join(dir, "yardmaster.toml"),
      `[server]\nhost = "127.0.0.1"\nport = 0\nretain = "1s"\n${ROWS}`,
    );
    served = await serve({ dir, children });
    await eventually(
      async () => (await call("GET", `/api/runs/${old}`)).status === 404,
      "old deleted",
    );
    const runs = (await call("GET", "/api/runs")).body as Array<{ id: string; status: string }>;
    expect(runs.every((r) => !["completed", "failed", "cancelled"].includes(r.status))).toBe(true);
    expect(runs.map((r) => r.id)).toContain(active);
  });
});
