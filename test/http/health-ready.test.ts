// GET /api/health answers its fields from counts kept in the store's indexes (a running run
// with a waiting attempt counts as running, not in progress), and GET /api/health/ready tells a
// load balancer whether the server can take work: 503 `conflict` when the store's schema is
// not the one this build expects, when the store does not answer, and while stopping.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { defaultToml, startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close().catch(() => {});
  server = undefined;
});

/** A server on a SQLite file of its own (the readiness checks reach into the file). */
async function sqliteServer(): Promise<TestServer> {
  const toml = defaultToml().replace("port = 0", 'port = 0\nstore = "sqlite:ready.db"');
  server = await startTestServer(toml);
  return server;
}

describe("GET /api/health", () => {
  it("counts running runs and attempts in progress, not waiting ones", async () => {
    const s = await sqliteServer();
    const asking = await s.call("POST", "/api/workflows/asker/runs", { title: "a" });
    await eventually(
      async () => (await s.call("GET", `/api/runs/${asking.body.run_id}`)).body.pending_requests,
      "the ask",
    );
    const sleeping = await s.call("POST", "/api/workflows/chain/runs", { title: "sleep:60000" });
    await eventually(
      async () => (await s.call("GET", "/api/health")).body.tasks_in_progress === 1,
      "the sleeping attempt",
    );
    const health = await s.call("GET", "/api/health");
    expect(health).toMatchObject({
      status: 200,
      body: {
        ok: true,
        version: expect.any(String),
        pools: { default: { capacity: 4, in_flight: 1 } },
        runs_running: 2,
        tasks_in_progress: 1,
      },
    });
    for (const run of [asking, sleeping])
      await s.call("POST", `/api/runs/${run.body.run_id}/cancel`);
  });
});

describe("GET /api/health/ready", () => {
  it("answers 200 with the schema version while the server can take work", async () => {
    const s = await sqliteServer();
    const ready = await s.call("GET", "/api/health/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ok: true, schema: expect.any(Number) });
  });

  it("answers 503 conflict when the store's schema is not this build's", async () => {
    const s = await sqliteServer();
    const { schema } = (await s.call("GET", "/api/health/ready")).body;
    const db = new Database(join(s.dir, "ready.db"));
    db.pragma(`user_version = ${schema - 1}`);
    const behind = await s.call("GET", "/api/health/ready");
    expect(behind.status).toBe(503);
    expect(behind.body).toMatchObject({ code: "conflict", reason: "schema" });
    expect(behind.body.error).toContain(`version ${schema - 1}`);
    db.pragma(`user_version = ${schema}`);
    db.close();
    expect((await s.call("GET", "/api/health/ready")).status).toBe(200);
  });

  it("answers 503 conflict while the server stops", async () => {
    const s = await sqliteServer();
    await s.engine.stop();
    const stopping = await s.call("GET", "/api/health/ready");
    expect(stopping.status).toBe(503);
    expect(stopping.body).toMatchObject({ code: "conflict", reason: "stopping" });
    // Liveness is another question: the process still answers.
    expect((await s.call("GET", "/api/health")).status).toBe(200);
  });

  it("answers 503 conflict when the store does not answer", async () => {
    const s = await sqliteServer();
    await s.engine.store.close();
    const gone = await s.call("GET", "/api/health/ready");
    expect(gone.status).toBe(503);
    expect(gone.body).toMatchObject({ code: "conflict", reason: "store" });
  });
});
