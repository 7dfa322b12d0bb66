// Findings of the OpenAPI fuzz test (fuzz-openapi.test.ts) outside the audit's list, each pinned
// by the minimal case the fuzzer shrank it to, so the fix stays whether or not the fuzzer's seed
// happens to reach it again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe("a path parameter longer than 100 characters", () => {
  // The router refused such a segment before any schema saw it: 414 with code `validation`, a
  // status docs/errors.md does not give that code, and `loc: []`. An id is judged by its own
  // schema or looked up, however long it is.
  const long = "x".repeat(101);

  it("is a run id nobody has: 404 not_found", async () => {
    const r = await s.call("POST", `/api/runs/${long}/log`, { text: "t" });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("not_found");
  });

  it("is a workflow nobody registered: 404 unknown_workflow", async () => {
    const r = await s.call("POST", `/api/workflows/${"w".repeat(150)}/runs`, { title: "t" });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("unknown_workflow");
  });

  it("is past the identifier limit: 422 at its own path parameter", async () => {
    const r = await s.call("POST", `/api/workflows/${"w".repeat(5000)}/runs`, { title: "t" });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].loc).toEqual(["path", "name"]);
  });

  it("is a task id that is not an integer: 422 at path.task_id", async () => {
    const r = await s.call("POST", `/api/tasks/${long}/retry`);
    expect(r.status).toBe(422);
    expect(r.body.errors[0].loc).toEqual(["path", "task_id"]);
  });
});
