// Every HTML page of a real server carries the same security headers: the console at `/`, at
// /index.html and on its client-side routes, Swagger UI at /docs and Redoc at /redoc. Above all
// none may be framed by another site (frame-ancestors, and X-Frame-Options for older browsers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";

const HTML_PAGES = [
  "/",
  "/index.html",
  "/runs",
  "/runs/01HXYZ?task=3",
  "/inbox",
  "/workflows/chain",
  "/panels",
  "/docs",
  "/docs/",
  "/redoc",
];

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

describe("security headers of HTML pages", () => {
  it.each(HTML_PAGES)("%s refuses to be framed and carries the page policy", async (path) => {
    const res = await fetch(s.url + path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("all pages send one and the same policy", async () => {
    const policies = new Set<string | null>();
    for (const path of HTML_PAGES) {
      policies.add((await fetch(s.url + path)).headers.get("content-security-policy"));
    }
    expect(policies.size).toBe(1);
  });
});
