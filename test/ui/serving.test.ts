// registerUi: index.html for console routes (and a JSON 404 for other paths), static assets with
// long caching and compression, JSON 404s kept for the API and the other server surfaces, and a
// page saying how to build when ui/dist is missing. A bare fastify app with the real routes and
// the HTML headers hook, as app.ts installs them, over real HTTP.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installHtmlHeaders } from "../../src/http/html-headers.ts";
import { registerUi } from "../../src/http/ui.ts";

let dir: string;
let built: FastifyInstance;
let missing: FastifyInstance;
let builtUrl: string;
let missingUrl: string;

async function serve(dist: string): Promise<[FastifyInstance, string]> {
  const app = Fastify();
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: "No route", code: "not_found" }),
  );
  installHtmlHeaders(app);
  await registerUi(app, dist);
  return [app, await app.listen({ host: "127.0.0.1", port: 0 })];
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-ui-"));
  mkdirSync(join(dir, "dist", "assets"), { recursive: true });
  writeFileSync(join(dir, "dist", "index.html"), "<!doctype html><title>console</title>");
  writeFileSync(join(dir, "dist", "assets", "app-1234.js"), "export {};");
  writeFileSync(join(dir, "dist", "assets", "big-5678.js"), "export const x = 1;\n".repeat(500));
  writeFileSync(join(dir, "dist", "favicon.svg"), "<svg/>");
  writeFileSync(join(dir, "secret.txt"), "outside");
  [built, builtUrl] = await serve(join(dir, "dist"));
  [missing, missingUrl] = await serve(join(dir, "nothing-built"));
});
afterAll(async () => {
  await built?.close();
  await missing?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("serving the console", () => {
  it("answers index.html at / and on console routes, uncached", async () => {
    for (const path of [
      "/",
      "/runs",
      "/runs/01HXYZ?task=3",
      "/inbox",
      "/workflows/demo",
      "/panels",
    ]) {
      const res = await fetch(builtUrl + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(await res.text()).toContain("<title>console</title>");
    }
  });

  it("serves built assets with a long cache, other files with a short one", async () => {
    const js = await fetch(`${builtUrl}/assets/app-1234.js`);
    expect(js.headers.get("content-type")).toContain("javascript");
    expect(js.headers.get("cache-control")).toContain("immutable");
    const icon = await fetch(`${builtUrl}/favicon.svg`);
    expect(icon.headers.get("content-type")).toBe("image/svg+xml");
    expect(icon.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("compresses files for a client that takes it", async () => {
    const gzip = { "accept-encoding": "gzip" };
    const big = await fetch(`${builtUrl}/assets/big-5678.js`, { headers: gzip });
    expect(big.headers.get("content-encoding")).toBe("gzip");
    expect(await big.text()).toBe("export const x = 1;\n".repeat(500));
    const plain = await fetch(`${builtUrl}/assets/big-5678.js`, {
      headers: { "accept-encoding": "identity" },
    });
    expect(plain.headers.get("content-encoding")).toBeNull();
  });

  it("lets a browser revalidate index.html instead of fetching it again", async () => {
    const first = await fetch(`${builtUrl}/runs`);
    const etag = first.headers.get("etag");
    expect(etag).toBeTruthy();
    // As a browser asks on reload (fetch would add `cache-control: no-cache` on its own).
    const again = await fetch(`${builtUrl}/runs`, {
      headers: { "if-none-match": etag!, "cache-control": "max-age=0" },
    });
    expect(again.status).toBe(304);
  });

  it("leaves the API, docs, MCP and plugin paths to their own 404, and missing files too", async () => {
    for (const path of [
      "/api/nope",
      "/docs/x",
      "/mcp/agent",
      "/plugins/wf/assets/a.js",
      "/assets/gone.js",
    ]) {
      const res = await fetch(builtUrl + path);
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
  });

  it("hands a browser's page request for an unknown path the console, never an API path", async () => {
    const html = { accept: "text/html,application/xhtml+xml,*/*;q=0.8" };
    for (const path of ["/nope", "/runs-old/x", "/settings?tab=1"]) {
      const res = await fetch(builtUrl + path, { headers: html });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain("<title>console</title>");
    }
    for (const path of ["/api/nope", "/docs/x", "/mcp/agent", "/assets/gone.js", "/gone.png"]) {
      const res = await fetch(builtUrl + path, { headers: html });
      expect(res.status, path).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
    // Without Accept: text/html (a client, curl), an unknown path keeps its JSON 404.
    const plain = await fetch(`${builtUrl}/nope`);
    expect(plain.status).toBe(404);
    expect(await plain.json()).toMatchObject({ code: "not_found" });
  });

  it("never serves a file outside ui/dist", async () => {
    for (const path of ["/..%2Fsecret.txt", "/%2e%2e/secret.txt", "/assets/..%2F..%2Fsecret.txt"]) {
      const res = await fetch(builtUrl + path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("outside");
    }
  });

  it("says how to build the console when ui/dist is missing", async () => {
    const res = await fetch(`${missingUrl}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain("npm run build:ui");
  });
});
