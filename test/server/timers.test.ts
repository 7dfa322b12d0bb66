// Timers through a real `yardmaster serve`: a retry's backoff of about a second observed in the
// events (task.failed's retry_at, the retry claimed no sooner), and a durable sleep of two
// seconds across a kill -9 and a restart in the middle: the run completes after the wake time
// and not before.
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { crash, type Served, serve, serverDir, stop } from "../support/serve.ts";
import { SseClient } from "../support/sse.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";

const FLOWS = `import { workflow } from "yardmaster";

let calls = 0;
export const flaky = workflow("flaky");
flaky.node(
  { start: true, retries: 2, backoff: { initial: 1, jitter: false } },
  async function once({}) {
    calls += 1;
    if (calls === 1) throw new Error("first call fails");
    return "ok";
  },
);

export const napper = workflow("napper");
napper.node({ start: true }, async function nap({}, payload, ctx) {
  await ctx.sleep(2);
  return "rested";
});
`;

const dir = serverDir("timers-");
const toml = [
  "[pools.default]",
  "capacity = 2",
  "",
  "[workflows.flaky]",
  'target = "flows.ts:flaky"',
  "",
  "[workflows.napper]",
  'target = "flows.ts:napper"',
  "",
].join("\n");
writeFileSync(join(dir, "flows.ts"), FLOWS);
const store = testStoreUrl(dir, "s.db");
const start = () => serve({ dir, toml, store, args: ["--port", "0"] });
let srv: Served | undefined;
const streams: SseClient[] = [];

afterAll(async () => {
  for (const s of streams) s.close();
  await stop(srv);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

function watch(s: Served): SseClient {
  const client = new SseClient(`${s.url}/api/events`);
  streams.push(client);
  return client;
}

async function completed(s: Served, runId: string) {
  return eventually(
    async () => {
      const run = (await s.call("GET", `/api/runs/${runId}`)).body;
      return run.status === "completed" ? run : undefined;
    },
    `run ${runId} completed`,
    20_000,
  );
}

describe("timers over a real server", () => {
  it("waits a retry's backoff out before claiming it", async () => {
    srv = await start();
    const events = watch(srv);
    await events.response();
    const { run_id } = (await srv.call("POST", "/api/workflows/flaky/runs", { title: "t" })).body;
    const run = await completed(srv, run_id);
    const mine = () => events.events().filter((e) => e.run_id === run_id);
    await eventually(() => mine().some((e) => e.name === "run.completed"), "events");
    const failed = mine().find((e) => e.name === "task.failed")!;
    const retryAt = Date.parse(failed.data.retry_at);
    expect(retryAt - Date.parse(failed.created)).toBe(1000);
    const retryStart = mine().find(
      (e) => e.name === "task.started" && e.task_id === failed.data.retry_task_id,
    )!;
    expect(Date.parse(retryStart.created)).toBeGreaterThanOrEqual(retryAt);
    expect(run.tasks.map((t: { status: string }) => t.status)).toEqual(["failed", "done"]);
    expect(run.tasks[1].not_before).toBe(failed.data.retry_at);
  }, 40_000);

  it("keeps a sleep across kill -9 and completes after the wake time, not before", async () => {
    srv ??= await start();
    const events = watch(srv);
    await events.response();
    const { run_id } = (await srv.call("POST", "/api/workflows/napper/runs", { title: "t" })).body;
    const sleeping = await eventually(
      () => events.events().find((e) => e.run_id === run_id && e.name === "task.sleeping"),
      "task.sleeping",
    );
    const until = Date.parse(sleeping.data.until);
    const task = (await srv.call("GET", `/api/tasks/${sleeping.task_id}`)).body;
    expect(task).toMatchObject({ status: "waiting", sleep_until: sleeping.data.until });
    await crash(srv);
    srv = await start();
    const run = await completed(srv, run_id);
    expect(Date.now()).toBeGreaterThanOrEqual(until);
    expect(run.output).toBe("rested");
    const [again] = run.tasks;
    expect(Date.parse(again.started)).toBeGreaterThanOrEqual(until);
    expect(Date.parse(again.finished)).toBeGreaterThanOrEqual(until);
    // The re-run body's sleep resolved from the store: it did not sleep two more seconds.
    expect(Date.parse(again.finished) - until).toBeLessThan(1500);
  }, 60_000);
});
