// The API describes itself: /openapi.json lists every implemented endpoint with the closed
// event and error vocabularies; /docs and /redoc render from local assets only; and
// docs/errors.md lists every code of ERROR_CATALOGUE with its status.
import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ERROR_CATALOGUE, ERROR_CODES, PROTOCOL_STATUSES } from "../../src/service/errors.ts";
import { EVENT_NAMES } from "../../src/service/schemas/index.ts";
import { type Started, startApp } from "./fixtures.ts";

let s: Started;
let doc: any;
beforeAll(async () => {
  s = await startApp();
  doc = await (await fetch(`${s.base}/openapi.json`)).json();
});
afterAll(async () => {
  await s.app.close();
});

// The rows of the Endpoints table this adapter implements.
const ENDPOINTS = [
  "GET /api/health",
  "GET /api/health/ready",
  "GET /api/me",
  "GET /api/events",
  "GET /api/workflows",
  "GET /api/schedules",
  "GET /api/schedules/{name}",
  "POST /api/schedules",
  "PATCH /api/schedules/{name}",
  "DELETE /api/schedules/{name}",
  "GET /api/workflows/{name}",
  "GET /api/workflows/{name}/failures",
  "POST /api/workflows/{name}/runs",
  "POST /api/workflows/{name}/runs/batch",
  "GET /api/runs",
  "GET /api/runs/counts",
  "GET /api/runs/{run_id}",
  "PATCH /api/runs/{run_id}",
  "DELETE /api/runs/{run_id}",
  "POST /api/runs/bulk",
  "POST /api/runs/{run_id}/cancel",
  "POST /api/runs/{run_id}/pause",
  "POST /api/runs/{run_id}/resume",
  "POST /api/runs/{run_id}/position",
  "POST /api/runs/{run_id}/rerun",
  "GET /api/runs/{run_id}/events",
  "GET /api/runs/{run_id}/graph",
  "GET /api/runs/{run_id}/explain",
  "GET /api/runs/{run_id}/log",
  "POST /api/runs/{run_id}/log",
  "GET /api/runs/{run_id}/requests",
  "GET /api/tasks/{task_id}",
  "POST /api/tasks/{task_id}/move",
  "POST /api/tasks/{task_id}/retry",
  "POST /api/tasks/{task_id}/status",
  "GET /api/tasks/{task_id}/explain",
  "GET /api/tasks/{task_id}/rejections",
  "GET /api/tasks/{task_id}/error",
  "GET /api/tasks/{task_id}/stream",
  "GET /api/requests",
  "GET /api/requests/{request_id}",
  "POST /api/requests/{request_id}/answer",
  "POST /api/workflows",
  "PUT /api/workflows/{name}",
  "DELETE /api/workflows/{name}",
  "GET /api/workflows/{name}/source",
  "GET /api/plugins",
  "POST /api/plugins/{wf}/actions/{name}",
  "GET /api/plugins/{wf}/panels/{name}/data",
];

describe("/openapi.json", () => {
  it("is OpenAPI 3 and lists every implemented endpoint, and nothing undocumented", () => {
    expect(doc.openapi).toMatch(/^3\./);
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(listed.sort()).toEqual([...ENDPOINTS].sort());
  });

  it("carries the event names and error codes as closed enumerations", () => {
    const schemas = doc.components.schemas;
    expect(schemas.EventName.enum).toEqual([...EVENT_NAMES]);
    expect(schemas.EventName.enum).toHaveLength(37);
    expect(schemas.EventName.description).toContain("plugin.");
    expect(schemas.ErrorCode.enum).toEqual(ERROR_CODES);
    expect(JSON.stringify(schemas.ApiError)).toContain("#/components/schemas/ErrorCode");
    expect(JSON.stringify(schemas.EventEnvelope)).toContain("#/components/schemas/EventName");
  });

  it("documents bodies, statuses and typed path parameters", () => {
    const submit = doc.paths["/api/workflows/{name}/runs"].post;
    expect(Object.keys(submit.responses)).toEqual(expect.arrayContaining(["201", "401", "422"]));
    expect(JSON.stringify(submit.requestBody)).toContain("NewRunInput");
    expect(Object.keys(doc.paths["/api/runs/{run_id}"].delete.responses)).toContain("204");
    const param = doc.paths["/api/tasks/{task_id}"].get.parameters[0];
    expect(param).toMatchObject({ in: "path", name: "task_id", schema: { type: "integer" } });
  });
});

describe("/openapi.json refusals", () => {
  it("documents 401 on operator routes, 422 with parameters or a body, 400 and 413 with a body", () => {
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const statuses = Object.keys(op.responses);
        const want: string[] = [];
        if (op.security?.some((s: object) => "bearer" in s)) want.push("401");
        if (op.parameters?.length || op.requestBody) want.push("422");
        if (op.requestBody) want.push("400", "413");
        for (const status of want) {
          if (!statuses.includes(status)) missing.push(`${method.toUpperCase()} ${path} ${status}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});

/** Asset URLs (src and href) of an HTML page, resolved against the page. */
function assets(html: string, page: string): string[] {
  return [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => new URL(m[1], page).href);
}

describe("documentation pages", () => {
  it("serves Swagger UI at /docs with every asset from this server", async () => {
    const page = `${s.base}/docs/`;
    const res = await fetch(page);
    expect(res.headers.get("content-type")).toContain("text/html");
    const urls = assets(await res.text(), page);
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) {
      expect(url.startsWith(s.base)).toBe(true);
      const asset = await fetch(url);
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const init = await fetch(`${s.base}/docs/static/swagger-initializer.js`);
    expect(await init.text()).toContain("SwaggerUIBundle");
  });

  it("serves Redoc at /redoc with its bundle and spec from this server", async () => {
    const page = `${s.base}/redoc`;
    const html = await (await fetch(page)).text();
    expect(html).toContain("<redoc");
    const [script] = assets(html, page);
    expect(script).toBe(`${s.base}/redoc/redoc.standalone.js`);
    const bundle = await fetch(script);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get("content-type")).toContain("javascript");
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    const spec = /spec-url="([^"]+)"/.exec(html)?.[1] ?? "";
    expect(new URL(spec, page).href).toBe(`${s.base}/openapi.json`);
  });
});

describe("docs/errors.md", () => {
  it("lists every code of the catalogue with its status, and no other", async () => {
    const text = await readFile(new URL("../../docs/errors.md", import.meta.url), "utf8");
    const rows = new Map(
      [...text.matchAll(/^\|\s*`([a-z_]+)`\s*\|\s*(\d{3})\s*\|/gm)].map((m) => [
        m[1],
        Number(m[2]),
      ]),
    );
    expect(Object.fromEntries(rows)).toEqual({ ...ERROR_CATALOGUE });
  });

  it("lists every status a code is also sent with, and no other", async () => {
    const text = await readFile(new URL("../../docs/errors.md", import.meta.url), "utf8");
    const pairs: Record<string, number[]> = {};
    for (const m of text.matchAll(/^\|\s*(\d{3})\s*\|\s*`([a-z_]+)`\s*\|/gm)) {
      pairs[m[2]] = [...(pairs[m[2]] ?? []), Number(m[1])];
    }
    expect(pairs).toEqual({ ...PROTOCOL_STATUSES });
  });
});
