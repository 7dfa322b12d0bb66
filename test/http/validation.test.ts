// The HTTP adapter's contract for input: every route refuses a bad path, query or body with
// 422 `validation` and FastAPI-style `errors`, malformed JSON is a 400, an oversized body a 413
// (declared or chunked), and nothing a client sends produces a 500.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUN_ID, type Started, startApp } from "./fixtures.ts";

let s: Started;
beforeAll(async () => {
  s = await startApp();
});
afterAll(async () => {
  await s.app.close();
});

async function call(method: string, path: string, body?: unknown) {
  const init: RequestInit = { method };
  if (body !== undefined) {
    init.headers = { "content-type": "application/json" };
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const res = await fetch(s.base + path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const run = `/api/runs/${RUN_ID}`;

// [method, path, body, expected loc of the first error]
const invalid: Array<[string, string, unknown, Array<string | number>]> = [
  ["GET", "/api/tasks/abc", undefined, ["path", "task_id"]],
  ["POST", "/api/tasks/1.5/move", { node: "b" }, ["path", "task_id"]],
  ["POST", "/api/tasks/x/retry", undefined, ["path", "task_id"]],
  ["POST", "/api/tasks/x/status", { status: "ready" }, ["path", "task_id"]],
  ["GET", "/api/tasks/x/stream", undefined, ["path", "task_id"]],
  ["GET", "/api/requests/abc", undefined, ["path", "request_id"]],
  ["POST", "/api/requests/1e3/answer", { value: 1 }, ["path", "request_id"]],
  ["GET", "/api/runs?status=bogus", undefined, ["query", "status"]],
  ["GET", `${run}/events?after=x`, undefined, ["query", "after"]],
  ["GET", `${run}/events?limit=-1`, undefined, ["query", "limit"]],
  ["GET", "/api/tasks/7/stream?after=1.5", undefined, ["query", "after"]],
  ["GET", "/api/requests?pending=maybe", undefined, ["query", "pending"]],
  ["GET", "/api/events?after=abc", undefined, ["query", "after"]],
  ["POST", "/api/workflows/triage/runs", { title: "" }, ["body", "title"]],
  ["POST", "/api/workflows/triage/runs", { description: "d" }, ["body", "title"]],
  ["POST", "/api/workflows/triage/runs", { title: "t", description: 5 }, ["body", "description"]],
  ["POST", "/api/workflows/triage/runs", [1, 2], ["body"]],
  ["PATCH", run, { title: 5 }, ["body", "title"]],
  ["POST", `${run}/position`, {}, ["body"]],
  ["POST", `${run}/position`, { direction: 1, index: 0 }, ["body"]],
  ["POST", `${run}/position`, { direction: 2 }, ["body", "direction"]],
  ["POST", `${run}/position`, { index: 1.5 }, ["body", "index"]],
  ["POST", `${run}/rerun`, {}, ["body", "node"]],
  ["POST", `${run}/log`, { text: "" }, ["body", "text"]],
  ["POST", "/api/tasks/7/move", { node: "" }, ["body", "node"]],
  ["POST", "/api/tasks/7/status", { status: "done" }, ["body", "status"]],
  ["POST", "/api/requests/3/answer", { option_id: 5 }, ["body", "option_id"]],
];

describe("validation failures", () => {
  it.each(invalid)("%s %s answers 422 with the failing loc", async (method, path, body, loc) => {
    const res = await call(method, path, body);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation");
    expect(typeof res.body.error).toBe("string");
    expect(res.body.errors[0].loc).toEqual(loc);
    for (const e of res.body.errors) {
      expect(Object.keys(e).sort()).toEqual(["loc", "msg", "type"]);
    }
  });

  it("names an absent field and an absent body as missing", async () => {
    const noTitle = await call("POST", "/api/workflows/triage/runs", {});
    expect(noTitle.body.errors).toEqual([
      { loc: ["body", "title"], msg: "Field required", type: "missing" },
    ]);
    const noBody = await call("POST", "/api/workflows/triage/runs");
    expect(noBody.status).toBe(422);
    expect(noBody.body.errors).toEqual([{ loc: ["body"], msg: "Field required", type: "missing" }]);
  });

  it("refuses a status value other than ready, cancelled, dead_letter", async () => {
    for (const status of ["in_progress", "waiting", "done", "failed"]) {
      expect((await call("POST", "/api/tasks/7/status", { status })).status).toBe(422);
    }
    expect((await call("POST", "/api/tasks/7/status", { status: "dead_letter" })).status).toBe(200);
  });
});

describe("bodies that are not JSON or too large", () => {
  it("answers 400 for malformed JSON", async () => {
    const res = await call("POST", "/api/workflows/triage/runs", '{"title": ');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: "validation",
      errors: [{ loc: ["body"], type: "json_invalid" }],
    });
  });

  it("answers 400 for a prototype-poisoning body", async () => {
    const res = await call(
      "POST",
      "/api/workflows/triage/runs",
      '{"title":"x","__proto__":{"a":1}}',
    );
    expect(res.status).toBe(400);
  });

  it("refuses a body of another media type as a 422 validation failure", async () => {
    const res = await fetch(`${s.base}/api/workflows/triage/runs`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: '{"title":"x"}',
    });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({
      code: "validation",
      errors: [{ loc: ["body"], type: "media_type" }],
    });
  });

  it("reads a body without a Content-Type, or of an application/*+json type, as JSON", async () => {
    const bare = await rawPost("/api/workflows/triage/runs", '{"title":"x"}');
    expect(bare.status).toBe(201);
    const malformedBare = await rawPost("/api/workflows/triage/runs", '{"title":');
    expect(malformedBare.status).toBe(400);
    const res = await fetch(`${s.base}/api/workflows/triage/runs`, {
      method: "POST",
      headers: { "content-type": "application/merge-patch+json; charset=utf-8" },
      body: '{"title":"x"}',
    });
    expect(res.status).toBe(201);
  });

  it("treats an empty JSON body as no body", async () => {
    const res = await fetch(`${s.base}${run}/cancel`, {
      method: "POST",
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(200);
  });

  it("answers 413 for a body over the cap with Content-Length", async () => {
    const res = await call("POST", "/api/workflows/triage/runs", { title: "x".repeat(4000) });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });

  it("answers 413 for a chunked body over the cap", async () => {
    const { status, body, chunked } = await chunkedPost("/api/workflows/triage/runs", 8, 512);
    expect(chunked).toBe(true);
    expect(status).toBe(413);
    expect(JSON.parse(body).code).toBe("payload_too_large");
  });

  it("accepts a chunked body under the cap", async () => {
    const { status } = await chunkedPost("/api/workflows/triage/runs", 1, 100);
    expect(status).toBe(201);
  });
});

/** POSTs `text` with a Content-Length and no Content-Type header at all. */
function rawPost(path: string, text: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = http.request(`${s.base}${path}`, {
      method: "POST",
      headers: { "content-length": Buffer.byteLength(text) },
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end(text);
  });
}

/** POSTs `count` chunks of `size` bytes with Transfer-Encoding: chunked (no Content-Length). */
function chunkedPost(path: string, count: number, size: number) {
  return new Promise<{ status: number; body: string; chunked: boolean }>((resolve, reject) => {
    const req = http.request(`${s.base}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
    });
    const chunked = req.getHeader("content-length") === undefined;
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => {
        body += c;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, chunked }));
    });
    // The server may answer and stop reading before every chunk is written.
    req.on("error", (err) => (req.destroyed ? undefined : reject(err)));
    const pad = "x".repeat(Math.max(0, count * size - 20));
    const text = JSON.stringify({ title: "t", description: pad });
    for (let i = 0; i < text.length; i += size) req.write(text.slice(i, i + size));
    req.end();
  });
}
