// The client types are generated from the server's own /openapi.json and committed
// (src/client/openapi.ts): this fails as soon as a route schema changes without
// `npm run generate:api`. The generator's in-process document is checked against what a real
// server serves, and the typed client ("yardmaster/client") is used against that server, its
// types checked by the compiler (expectTypeOf).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { API_TYPES_FILE, renderApiTypes } from "../../scripts/generate-api-types.ts";
import { buildOpenApiDocument } from "../../scripts/openapi-document.ts";
import { ApiRefusal, createClient, EVENT_NAMES, type Schemas } from "../../src/client/index.ts";
import { EVENT_NAMES as SERVER_EVENT_NAMES } from "../../src/service/schemas/index.ts";
import { startTestServer, type TestServer } from "../support/server-harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
}, 30_000);
afterAll(async () => {
  await server?.close();
});

describe("src/client/openapi.ts", () => {
  it("is what `npm run generate:api` writes for the current schemas", async () => {
    const fresh = await renderApiTypes();
    const committed = readFileSync(API_TYPES_FILE, "utf8");
    if (fresh !== committed) {
      expect.fail(
        "src/client/openapi.ts is stale: the API's schemas changed. Run `npm run generate:api` " +
          "and commit the result.",
      );
    }
  }, 60_000);

  it("comes from the document a serving server answers at /openapi.json", async () => {
    const served = (await server.call("GET", "/openapi.json")).body;
    const built = await buildOpenApiDocument();
    expect(built.paths).toEqual(served.paths);
    expect(built.components).toEqual(served.components);
  });

  it("carries the event vocabulary as a value, in the server's order", () => {
    expect([...EVENT_NAMES]).toEqual([...SERVER_EVENT_NAMES]);
  });
});

describe("the typed client", () => {
  it("calls routes by their documented path, with typed parameters, bodies and answers", async () => {
    const client = createClient({ baseUrl: server.url, timeoutMs: 10_000 });
    const created = await client.post("/api/workflows/{name}/runs", {
      params: { name: "chain" },
      body: { title: "typed" },
    });
    expectTypeOf(created).toEqualTypeOf<Schemas["Created"]>();
    const run = await client.get("/api/runs/{run_id}", { params: { run_id: created.run_id } });
    expectTypeOf(run).toEqualTypeOf<Schemas["RunDetail"]>();
    expect(run).toMatchObject({ id: created.run_id, workflow: "chain", title: "typed" });
    const listed = await client.get("/api/runs", { query: { workflow: "chain" } });
    expectTypeOf(listed).toEqualTypeOf<Schemas["RunSummary"][]>();
    expect(listed.map((r) => r.id)).toContain(created.run_id);
    const { status, body } = await client.request("DELETE", "/api/runs/{run_id}", {
      params: { run_id: created.run_id },
    });
    expectTypeOf(body).toEqualTypeOf<undefined>();
    expect([status, body]).toEqual([204, undefined]);
  });

  it("throws ApiRefusal with the refusal's status, code and body", async () => {
    const client = createClient({ baseUrl: `${server.url}/` });
    const refused = await client
      .get("/api/runs/{run_id}", { params: { run_id: "no such/run" } })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiRefusal);
    expect(refused).toMatchObject({ status: 404, code: "not_found" });
    expect((refused as ApiRefusal).body.error).toEqual(expect.any(String));
  });

  it("refuses undocumented paths, missing parameters and wrong bodies at compile time", () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:1" });
    // Never called: the compiler is what this checks.
    const unused = () => {
      // @ts-expect-error: not a documented path
      void client.get("/api/nothing");
      // @ts-expect-error: the path parameter is required
      void client.get("/api/runs/{run_id}");
      // @ts-expect-error: a task id is a number
      void client.get("/api/tasks/{task_id}", { params: { task_id: "7" } });
      // @ts-expect-error: the body needs a title
      void client.post("/api/workflows/{name}/runs", { params: { name: "chain" }, body: {} });
      // @ts-expect-error: GET has no body
      void client.get("/api/runs", { body: {} });
      // @ts-expect-error: the event stream never ends; it is not a call
      void client.get("/api/events");
    };
    expect(typeof unused).toBe("function");
  });
});
