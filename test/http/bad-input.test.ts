// Bad input never yields a 500: every route of the published OpenAPI description receives a
// malformed body, an oversized body (with and without Content-Length) and junk path ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";

let s: TestServer;
let routes: Array<{ method: string; path: string }>;

beforeAll(async () => {
  s = await startTestServer();
  const spec = (await s.call("GET", "/openapi.json")).body;
  routes = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
    ([path, ops]) => Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
  );
});
afterAll(async () => {
  await s?.close();
});

/** Fills path parameters with values that exist nowhere, or are not even numbers. */
function concrete(path: string, junk: boolean): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (junk) return "%20not-an-id%2F..";
    return name === "run_id" || name === "name" || name === "wf" ? "zz_missing" : "987654321";
  });
}

const WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

describe("bad input on every route", () => {
  it("lists the routes of the contract", () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const expected of [
      "POST /api/workflows/{name}/runs",
      "GET /api/runs/{run_id}",
      "POST /api/tasks/{task_id}/move",
      "POST /api/requests/{request_id}/answer",
      "POST /api/agent/tasks/{task_id}/submit",
      "GET /api/events",
    ]) {
      expect(paths).toContain(expected);
    }
  });

  it("malformed JSON is a 400 (or an earlier refusal), never a 500", async () => {
    for (const { method, path } of routes.filter((r) => WITH_BODY.has(r.method))) {
      const r = await s.call(method, concrete(path, false), "{not json", {
        "x-service-token": "x",
      });
      expect([400, 401, 403, 404, 422], `${method} ${path} -> ${r.status}`).toContain(r.status);
      expect(r.body?.code, `${method} ${path}`).toBeTypeOf("string");
    }
  });

  it("a body over the cap is a 413 whether or not it declared its length", async () => {
    const huge = JSON.stringify({ title: "x".repeat(1_100_000) });
    for (const { method, path } of routes.filter((r) => WITH_BODY.has(r.method))) {
      const declared = await s.call(method, concrete(path, false), huge);
      expect(declared.status, `${method} ${path}`).toBe(413);
      expect(declared.body.code).toBe("payload_too_large");
      const chunked = await fetch(s.url + concrete(path, false), {
        method,
        headers: { "content-type": "application/json" },
        body: new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(huge));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
      expect(chunked.status, `${method} ${path} chunked`).toBe(413);
    }
  });

  it("junk and unknown path ids are refused with the envelope", async () => {
    for (const { method, path } of routes.filter(
      (r) => r.path.includes("{") && r.path !== "/api/events",
    )) {
      for (const junk of [false, true]) {
        const body = WITH_BODY.has(method) ? {} : undefined;
        const r = await s.call(method, concrete(path, junk), body, { "x-service-token": "x" });
        expect(r.status, `${method} ${concrete(path, junk)}`).toBeLessThan(500);
        expect(r.status).toBeGreaterThanOrEqual(400);
        expect(typeof r.body.error).toBe("string");
      }
    }
  });

  it("wrong JSON types are 422 validation with loc/msg/type", async () => {
    const r = await s.call("POST", "/api/workflows/chain/runs", { title: 5 });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ code: "validation" });
    expect(r.body.errors[0]).toMatchObject({ loc: ["body", "title"] });
    expect(typeof r.body.errors[0].msg).toBe("string");
    expect(typeof r.body.errors[0].type).toBe("string");
    const empty = await s.call("POST", "/api/workflows/chain/runs", { title: "" });
    expect(empty.status).toBe(422);
    const unknown = await s.call("POST", "/api/workflows/nope/runs", { title: "t" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe("unknown_workflow");
  });
});
