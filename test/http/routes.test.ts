// Each operator route: its method, path and success status, the parsed values it hands the
// service, the refusal envelope of a ServiceError, and how unknown routes and faults render.
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/observability/logger.ts";
import { TaskDetail } from "../../src/service/schemas/index.ts";
import { fixtureService, RUN_ID, type Started, startApp } from "./fixtures.ts";

let s: Started;
beforeAll(async () => {
  s = await startApp();
});
afterAll(async () => {
  await s.app.close();
});

async function call(method: string, path: string, body?: unknown, base = s.base) {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = JSON.stringify(body);
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  return { status: res.status, text, body: text ? JSON.parse(text) : undefined };
}

const run = `/api/runs/${RUN_ID}`;

const ok: Array<[string, string, unknown, number]> = [
  ["GET", "/api/health", undefined, 200],
  ["GET", "/api/me", undefined, 200],
  ["GET", "/api/workflows", undefined, 200],
  ["GET", "/api/workflows/triage", undefined, 200],
  ["POST", "/api/workflows/triage/runs", { title: "t" }, 201],
  ["GET", "/api/runs", undefined, 200],
  ["GET", run, undefined, 200],
  ["PATCH", run, { title: "new" }, 200],
  ["DELETE", run, undefined, 204],
  ["POST", `${run}/cancel`, undefined, 200],
  ["POST", `${run}/resume`, undefined, 200],
  ["POST", `${run}/position`, { direction: -1 }, 200],
  ["POST", `${run}/rerun`, { node: "intake" }, 200],
  ["GET", `${run}/events`, undefined, 200],
  ["GET", `${run}/graph`, undefined, 200],
  ["GET", `${run}/log`, undefined, 200],
  ["POST", `${run}/log`, { text: "note" }, 200],
  ["GET", `${run}/requests`, undefined, 200],
  ["GET", "/api/tasks/7", undefined, 200],
  ["POST", "/api/tasks/7/move", { node: "b" }, 200],
  ["POST", "/api/tasks/7/retry", undefined, 200],
  ["POST", "/api/tasks/7/status", { status: "ready" }, 200],
  ["GET", "/api/tasks/7/stream", undefined, 200],
  ["GET", "/api/requests", undefined, 200],
  ["GET", "/api/requests/3", undefined, 200],
  ["POST", "/api/requests/3/answer", { value: "because" }, 200],
];

describe("operator routes", () => {
  it.each(ok)("%s %s answers %i", async (method, path, body, status) => {
    const res = await call(method, path, body);
    expect(res.status).toBe(status);
    if (status === 204) expect(res.text).toBe("");
  });

  it("answers 404 not_found for unknown ids, from the service", async () => {
    for (const path of [
      "/api/runs/nope",
      "/api/tasks/99",
      "/api/requests/99",
      "/api/workflows/x",
    ]) {
      const res = await call("GET", path);
      expect(res.status).toBe(404);
      expect(Object.keys(res.body).sort()).toEqual(["code", "error"]);
    }
    expect((await call("GET", "/api/workflows/x")).body.code).toBe("not_found");
  });

  it("renders a service conflict as 409 with its code", async () => {
    const res = await call("POST", `${run}/pause`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("conflict");
  });

  it("hands the service parsed values: defaults, integers, booleans", async () => {
    s.calls.length = 0;
    await call("POST", "/api/workflows/triage/runs", { title: "t", extra: 1 });
    await call("GET", `${run}/events?after=5&limit=10`);
    await call("GET", "/api/requests?pending=false&run=r1");
    await call("GET", "/api/runs?status=paused&workflow=triage");
    await call("POST", `${run}/position`, { index: 3 });
    expect(s.calls).toEqual([
      ["submitRun", "triage", { title: "t", description: "" }],
      ["runEvents", { after: 5, limit: 10 }],
      ["listRequests", { pending: false, run: "r1" }],
      ["listRuns", { status: "paused", workflow: "triage" }],
      ["positionRun", { index: 3 }],
    ]);
  });

  it("serializes through the schema, so internal fields never leak", async () => {
    const res = await call("GET", "/api/tasks/7");
    expect(res.text).not.toContain("task-secret");
    expect(TaskDetail.parse(res.body).id).toBe(7);
  });

  it("answers 404 not_found for an unknown route and a wrong method", async () => {
    for (const [method, path] of [
      ["GET", "/api/nothing"],
      ["PUT", "/api/runs"],
      ["GET", "/nowhere"],
    ]) {
      const res = await call(method, path);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("answers 400 with the envelope for a malformed URL", async () => {
    const res = await call("GET", "/api/runs/%E0%A4%A");
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "validation",
      errors: [{ loc: ["path"], msg: expect.any(String), type: "FST_ERR_BAD_URL" }],
    });
  });
});

describe("faults", () => {
  let faulty: Started;
  const lines: string[] = [];
  beforeAll(async () => {
    const service = fixtureService();
    service.listRunsPage = async () => {
      throw new Error("disk on fire");
    };
    // A view that misfits its schema is a bug of ours, never the client's.
    service.getWorkflow = async () => ({ name: "broken" }) as never;
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: "info", format: "json", destination: stream });
    faulty = await startApp({ service, logger });
  });
  afterAll(async () => {
    await faulty.app.close();
  });

  it("answers 500 with the envelope and logs the cause", async () => {
    const res = await call("GET", "/api/runs", undefined, faulty.base);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: "Internal error", code: "internal" });
    expect(res.text).not.toContain("disk on fire");
    expect(lines.join("")).toContain("disk on fire");
  });

  it("answers 500 when a view misfits its response schema", async () => {
    const res = await call("GET", "/api/workflows/x", undefined, faulty.base);
    expect(res.status).toBe(500);
    expect(res.body.code).toBe("internal");
  });
});
