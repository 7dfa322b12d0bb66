// GET /metrics on a real server, read with a real Prometheus text-format parser and checked
// against state the test built: runs completed and failed, a retry and a dead letter, runs
// queued, running and paused, attempts ready, in progress and waiting, the pool's slots and
// ready depth, pending requests, an open event stream. Operator-only when a token is required.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Family, metricValue, parseMetrics, sampleOf } from "../support/prometheus-text.ts";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

const FLAKY = `import { workflow } from "yardmaster";
export const flaky = workflow("flaky");
flaky.node({ start: true, retries: 1 }, async function boom() {
  throw new Error("always fails");
});
`;

let server: TestServer;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "ym-metrics-"));
  writeFileSync(join(dir, "flaky.ts"), FLAKY);
  // One slot, so runs queue behind an attempt that holds it.
  const toml = defaultToml().replace("capacity = 4", "capacity = 1");
  server = await startTestServer(`${toml}\n[workflows.flaky]\ntarget = "flaky.ts:flaky"\n`, dir);
});
afterAll(() => server?.close());

async function scrape(): Promise<{ families: Family[]; text: string }> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { families: parseMetrics(text), text };
}

async function submit(workflow: string, title: string): Promise<string> {
  const res = await server.call("POST", `/api/workflows/${workflow}/runs`, { title });
  expect(res.status).toBe(201);
  return res.body.run_id;
}

const statusOf = async (runId: string) => (await server.call("GET", `/api/runs/${runId}`)).body;
const until = (runId: string, status: string) =>
  eventually(async () => (await statusOf(runId)).status === status, `run ${status}`);
const waitingOn = (runId: string) =>
  eventually(async () => (await statusOf(runId)).pending_requests === 1, "a pending request");

describe("GET /metrics", () => {
  it("counts what happened and what is open, as the store and the pools have it", async () => {
    for (const title of ["a", "b", "c"]) await until(await submit("chain", title), "completed");
    await until(await submit("flaky", "x"), "failed");
    const asking = await submit("asker", "a");
    await waitingOn(asking);
    const paused = await submit("asker", "b");
    await waitingOn(paused);
    expect((await server.call("POST", `/api/runs/${paused}/pause`)).status).toBe(200);
    // The slot is held; two more runs queue behind it with their first attempts ready.
    const holding = await submit("chain", "sleep:60000");
    await eventually(
      async () => (await statusOf(holding)).tasks[0]?.status === "in_progress",
      "the slot taken",
    );
    await submit("chain", "d");
    await submit("chain", "e");
    const stream = new AbortController();
    const events = await fetch(`${server.url}/api/events`, { signal: stream.signal });

    const { families: m, text } = await scrape();
    expect(metricValue(m, "yardmaster_runs_ended_total", { status: "completed" })).toBe(3);
    expect(metricValue(m, "yardmaster_runs_ended_total", { status: "failed" })).toBe(1);
    const chainFirst = { workflow: "chain", node: "first" };
    expect(metricValue(m, "yardmaster_attempts_total", { ...chainFirst, outcome: "done" })).toBe(3);
    // The parser folds the series of a labelled histogram into one, so its family is checked
    // there and one series' count read from its own line.
    const durations = m.find((f) => f.name === "yardmaster_attempt_duration_seconds");
    expect(durations?.type).toBe("HISTOGRAM");
    expect(text).toContain(
      'yardmaster_attempt_duration_seconds_count{workflow="chain",node="first",outcome="done"} 3\n',
    );
    const boom = { workflow: "flaky", node: "boom" };
    expect(metricValue(m, "yardmaster_retries_total", boom)).toBe(1);
    expect(metricValue(m, "yardmaster_dead_letters_total", boom)).toBe(1);
    expect(metricValue(m, "yardmaster_attempts_total", { ...boom, outcome: "retry" })).toBe(1);

    expect(metricValue(m, "yardmaster_runs", { status: "queued" })).toBe(2);
    expect(metricValue(m, "yardmaster_runs", { status: "running" })).toBe(2);
    expect(metricValue(m, "yardmaster_runs", { status: "paused" })).toBe(1);
    expect(metricValue(m, "yardmaster_tasks", { status: "ready" })).toBe(2);
    expect(metricValue(m, "yardmaster_tasks", { status: "in_progress" })).toBe(1);
    expect(metricValue(m, "yardmaster_tasks", { status: "waiting" })).toBe(2);
    expect(metricValue(m, "yardmaster_requests_pending")).toBe(2);
    expect(metricValue(m, "yardmaster_pool_capacity", { pool: "default" })).toBe(1);
    expect(metricValue(m, "yardmaster_pool_in_flight", { pool: "default" })).toBe(1);
    expect(metricValue(m, "yardmaster_pool_ready", { pool: "default" })).toBe(2);
    expect(metricValue(m, "yardmaster_event_streams")).toBe(1);
    const commits = sampleOf(m, "yardmaster_store_commit_seconds");
    expect(Number(commits.count)).toBeGreaterThan(0);
    expect(commits.buckets!["+Inf"]).toBe(commits.count);
    // The process and its event loop, from prom-client's default collectors.
    expect(metricValue(m, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);
    expect(metricValue(m, "process_resident_memory_bytes")).toBeGreaterThan(0);

    stream.abort();
    await events.body?.cancel().catch(() => {});
    await server.call("POST", `/api/runs/${holding}/cancel`);
  });
});

describe("GET /metrics on a server that wants a token", () => {
  it("needs the operator token, like every operator endpoint", async () => {
    const guarded = await startTestServer(
      defaultToml().replace("port = 0", "port = 0\nrequire_token = true"),
    );
    try {
      const token = readFileSync(join(guarded.dir, ".yardmaster", "operator-token"), "utf8").trim();
      const bare = await guarded.call("GET", "/metrics");
      expect(bare.status).toBe(401);
      expect(bare.body.code).toBe("unauthorized");
      const ok = await guarded.call("GET", "/metrics", undefined, {
        authorization: `Bearer ${token}`,
      });
      expect(ok.status).toBe(200);
      expect(parseMetrics(ok.body).some((f) => f.name === "yardmaster_runs")).toBe(true);
    } finally {
      await guarded.close();
    }
  });
});
