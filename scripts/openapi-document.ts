// The OpenAPI document a serving Yardmaster answers at /openapi.json, built in this process from
// the real app (`buildApp`) without a store, an engine or a socket: the document comes from the
// route schemas alone, so every dependency is an inert stand-in that refuses to be called. All
// optional parts a server mounts (agent surface, registration, plugins, metrics) are given, so
// the document lists every route `yardmaster serve` documents; test/client/types.test.ts checks
// that against a real server.
import { EventBus } from "../src/engine/index.ts";
import { type AppDeps, buildApp } from "../src/http/app.ts";

/** Any property is a function that throws: nothing may call the service while documenting. */
function inert<T>(what: string): T {
  return new Proxy({} as object, {
    get(_target, property) {
      // Not a thenable: `await` on it must not look for a `then`.
      if (property === "then") return undefined;
      return () => {
        throw new Error(`${what}.${String(property)} called while building the API document`);
      };
    },
  }) as T;
}

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, unknown>;
  components: { schemas: Record<string, { enum?: unknown[] } & Record<string, unknown>> };
}

/** The document, with `info.version` fixed so that it does not follow the package's version. */
export async function buildOpenApiDocument(): Promise<OpenApiDocument> {
  const deps: AppDeps = {
    service: inert("service"),
    agent: inert("agent"),
    registrar: inert("registrar"),
    plugins: inert("plugins"),
    metrics: inert("metrics"),
    events: {
      bus: new EventBus(),
      replay: async () => [],
      lastEventId: async () => 0,
    },
    auth: { mode: "off", check: () => true },
    bodyLimit: 1024,
    sseReplayCap: 1,
    version: "0.0.0",
  };
  const app = await buildApp(deps);
  try {
    await app.ready();
    return structuredClone(app.swagger()) as unknown as OpenApiDocument;
  } finally {
    await app.close();
  }
}
