// A real server in the test's own process (`startServer`, the same wiring `yardmaster serve`
// uses) on 127.0.0.1 with an OS-chosen port, a configuration file in a fresh temp directory,
// and a tiny fetch client. For a test that needs the server as a separate process (signals, a
// stalled event loop, the command's own start-up), serve.ts starts `yardmaster serve`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config/index.ts";
import { type RunningServer, startServer } from "../../src/server/start.ts";
import { testStoreUrl } from "./test-store.ts";

export const FLOWS = join(import.meta.dirname, "..", "fixtures", "e2e", "flows.ts");
/** The repository: its fixtures and examples are the workflows these servers load. */
const REPOSITORY = join(import.meta.dirname, "..", "..");

export interface TestServer extends RunningServer {
  dir: string;
  configFile: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    body: any;
    headers: Headers;
  }>;
  close(): Promise<void>;
}

export function defaultToml(extra = ""): string {
  return [
    "[server]",
    'host = "127.0.0.1"',
    "port = 0",
    "",
    "[pools.default]",
    "capacity = 4",
    "",
    ...["chain", "fan", "asker", "forms"].flatMap((name) => [
      `[workflows.${name}]`,
      `target = "${FLOWS}:${name}"`,
      "",
    ]),
    extra,
  ].join("\n");
}

/** Starts a server; pass `reuseDir` (a stopped server's `dir`) to restart on the same store. */
export async function startTestServer(
  toml = defaultToml(),
  reuseDir?: string,
): Promise<TestServer> {
  const dir = reuseDir ?? mkdtempSync(join(tmpdir(), "ym-server-"));
  const configFile = join(dir, "yardmaster.toml");
  writeFileSync(configFile, toml);
  const config = await loadConfig({ file: configFile, cwd: dir });
  // A test that names its store keeps it; the others follow YARDMASTER_TEST_STORE.
  const named = /^\s*store\s*=/m.test(toml);
  if (!named && process.env.YARDMASTER_TEST_STORE === "postgres") {
    config.server.store = testStoreUrl(dir);
  }
  // As if started from the repository's folder (its working folder), unless the test says.
  if (!/^\s*workflow_roots\s*=/m.test(toml)) config.server.workflowRoots.push(REPOSITORY);
  const server = await startServer(config);
  const call: TestServer["call"] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] ??= "application/json";
    }
    const res = await fetch(server.url + path, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {}
    return { status: res.status, body: parsed, headers: res.headers };
  };
  return {
    ...server,
    dir,
    configFile,
    call,
    async close() {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    stop: () => server.stop(),
  };
}

// The one wait lives in wait.ts; tests that still import it from here get the same function.
export { eventually } from "./wait.ts";
