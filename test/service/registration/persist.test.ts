// `persist`: registrations written to and removed from the configuration file (the rest of the
// user's file, comments included, kept byte for byte), the X-Service-Persisted header, a failed
// write registering nothing, the round trip through a restart, a server started without a file,
// and 503 from an application built without a registrar.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config/index.ts";
import { Engine } from "../../../src/engine/index.ts";
import { buildApp } from "../../../src/http/app.ts";
import { startServer } from "../../../src/server/start.ts";
import { EngineOperatorService } from "../../../src/service/operator-service.ts";
import { openSqliteStore } from "../../../src/stores/sqlite/index.ts";
import { startTestServer, type TestServer } from "../../support/server-harness.ts";
import { runIn, submit, writeWorkflow } from "../../support/workflow-files.ts";

const TOML = `# Yardmaster for the persist tests
[server]
host = "127.0.0.1"   # loopback: no token
port = 0

[pools.default]
capacity = 2

[pools.batch]
capacity = 1 # one at a time
`;

const simple = (name: string, value: string) => `import { workflow } from "YARDMASTER";
export const ${name} = workflow("${name}");
${name}.node({ start: true }, async function only() { return "${value}"; });
`;

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(TOML);
  writeWorkflow(s.dir, "flows/kept.ts", simple("kept", "k"));
  writeWorkflow(s.dir, "flows/other.ts", simple("other", "o"));
});
afterAll(async () => {
  await s?.close();
});

const ROW = `\n[workflows.kept]\ntarget = "flows/kept.ts:kept"\npool = "batch"\n`;

describe("persist on a server with a configuration file", () => {
  it("POST writes one row after the user's file and names the file in the header", async () => {
    const r = await s.call("POST", "/api/workflows", {
      target: "flows/kept.ts:kept",
      pool: "batch",
      persist: true,
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("x-service-persisted")).toBe(s.configFile);
    expect(readFileSync(s.configFile, "utf8")).toBe(TOML + ROW);
  });

  it("PUT with persist rewrites the row in place", async () => {
    const r = await s.call("PUT", "/api/workflows/kept", { pool: "default", persist: true });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-service-persisted")).toBe(s.configFile);
    expect(readFileSync(s.configFile, "utf8")).toBe(TOML + ROW.replace("batch", "default"));
    const quiet = await s.call("PUT", "/api/workflows/kept", {});
    expect(quiet.headers.get("x-service-persisted")).toBeNull();
  });

  it("the row survives a restart: a new server registers the workflow from it", async () => {
    await s.stop();
    s = await startTestServer(readFileSync(s.configFile, "utf8"), s.dir);
    const wf = await s.call("GET", "/api/workflows/kept");
    expect(wf.body).toMatchObject({ name: "kept", pool: "default", target: "flows/kept.ts:kept" });
    const run = await submit(s, "kept", "after restart");
    expect((await runIn(s, run, ["completed"])).output).toBe("k");
  });

  it("DELETE with persist removes the row (header), and the file is the user's again", async () => {
    const r = await s.call("DELETE", "/api/workflows/kept?persist=true");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-service-persisted")).toBe(s.configFile);
    expect(readFileSync(s.configFile, "utf8")).toBe(TOML);
  });

  it("DELETE with persist of a workflow without a row sends no header", async () => {
    expect(
      (await s.call("POST", "/api/workflows", { target: "flows/other.ts:other" })).status,
    ).toBe(201);
    const r = await s.call("DELETE", "/api/workflows/other?persist=true");
    expect(r.status).toBe(200);
    expect(r.headers.get("x-service-persisted")).toBeNull();
    expect(readFileSync(s.configFile, "utf8")).toBe(TOML);
  });

  it("a row that cannot be written is 500 persist_failed, and nothing is registered", async () => {
    writeFileSync(s.configFile, `${TOML}\n[workflows\n`);
    const r = await s.call("POST", "/api/workflows", {
      target: "flows/other.ts:other",
      persist: true,
    });
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ code: "persist_failed", path: s.configFile });
    expect(r.body.detail).toMatch(/TOML/);
    expect((await s.call("GET", "/api/workflows/other")).status).toBe(404);
    writeFileSync(s.configFile, TOML);
  });
});

describe("persist in a folder whose path is not ASCII", () => {
  it("answers normally; the header carries the path percent-encoded as UTF-8", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ym-persist-日本-ü%-"));
    const t = await startTestServer(TOML, dir);
    try {
      writeWorkflow(dir, "flows/kept.ts", simple("kept", "k"));
      const r = await t.call("POST", "/api/workflows", {
        target: "flows/kept.ts:kept",
        persist: true,
      });
      expect(r.status).toBe(201);
      const header = r.headers.get("x-service-persisted")!;
      expect(header).toMatch(/^[\x20-\x7e]+$/);
      expect(decodeURIComponent(header)).toBe(t.configFile);
      const removed = await t.call("DELETE", "/api/workflows/kept?persist=true");
      expect(removed.status).toBe(200);
      expect(decodeURIComponent(removed.headers.get("x-service-persisted")!)).toBe(t.configFile);
    } finally {
      await t.close();
    }
  });
});

describe("persist on a server started without a configuration file", () => {
  it("writes yardmaster.toml in the working folder, which the next start reads", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ym-nofile-"));
    try {
      writeWorkflow(dir, "wf.ts", simple("lone", "alone"));
      const config = await loadConfig({ cwd: dir, flags: { port: 0 } });
      expect(config.file).toBeNull();
      const server = await startServer(config);
      const res = await fetch(`${server.url}/api/workflows`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ target: "wf.ts:lone", persist: true }),
      });
      await server.stop();
      const file = path.join(dir, "yardmaster.toml");
      expect(res.status).toBe(201);
      expect(res.headers.get("x-service-persisted")).toBe(file);
      expect(readFileSync(file, "utf8")).toBe(
        '[workflows.lone]\ntarget = "wf.ts:lone"\npool = "default"\n',
      );
      const next = await loadConfig({ cwd: dir, flags: { port: 0 } });
      expect(Object.keys(next.workflows)).toEqual(["lone"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("an application without a registrar", () => {
  it("answers 503 registration_unavailable to POST, PUT and DELETE", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "ym-noreg-"));
    const store = await openSqliteStore(path.join(dir, "store.db"));
    const engine = new Engine({ store, pools: { default: { capacity: 1 } } });
    const app = await buildApp({
      service: new EngineOperatorService(engine, "0.0.0"),
      events: { bus: engine.bus, replay: async () => [], lastEventId: async () => 0 },
      auth: { mode: "off", check: () => true },
      bodyLimit: 1 << 20,
      sseReplayCap: 10,
      version: "0.0.0",
    });
    try {
      for (const [method, url, body] of [
        ["POST", "/api/workflows", { target: "x.ts:x" }],
        ["PUT", "/api/workflows/x", {}],
        ["DELETE", "/api/workflows/x", undefined],
      ] as const) {
        const res = await app.inject({ method, url, payload: body });
        expect(res.statusCode, method).toBe(503);
        expect(res.json().code, method).toBe("registration_unavailable");
      }
    } finally {
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
