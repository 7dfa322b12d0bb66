// Black-box harness: the real `yardmaster serve` as a subprocess, driven only over HTTP.
// Workflow files live in a fresh folder under the repository's ignored `tmp/`, so their
// `import ... from "yardmaster"` resolves through the package's own exports map.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { testStoreUrl } from "./test-store.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const BIN = join(ROOT, "bin", "yardmaster.mjs");

export interface Reply {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface BlackboxServer {
  url: string;
  dir: string;
  config: string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Stops the process; its folder is removed unless `keep` (to restart on the same store). */
  stop(keep?: boolean): Promise<void>;
}

/** A fresh folder for one server's files; removed by `stop`. */
export function makeDir(): string {
  mkdirSync(join(ROOT, "tmp"), { recursive: true });
  return mkdtempSync(join(ROOT, "tmp", "bb-"));
}

// The child must not inherit a developer's client settings: the suite reads only the spec.
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.YARDMASTER_TOKEN;
  delete env.YARDMASTER_URL;
  return env;
}

export async function startServer(dir: string, toml: string): Promise<BlackboxServer> {
  const config = join(dir, "yardmaster.toml");
  writeFileSync(config, toml);
  const args = [
    BIN,
    "serve",
    "--config",
    config,
    "--port",
    "0",
    "--store",
    testStoreUrl(dir, "s.db"),
  ];
  const child = spawn(process.execPath, args, { cwd: dir, env: cleanEnv() });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  // A wildcard bind is reached over loopback; the URL printed is still the bind's.
  const url = (await listeningUrl(child)).replace("//0.0.0.0:", "//127.0.0.1:");
  const call: BlackboxServer["call"] = (method, path, body, headers) =>
    request(url, method, path, body, headers);
  const stop = async (keep = false) => {
    await stopChild(child);
    if (!keep) rmSync(dir, { recursive: true, force: true });
  };
  return { url, dir, config, call, output: () => output, stop };
}

function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`server did not start: ${err}`)), 20_000);
    child.stderr?.on("data", (chunk) => {
      err += chunk;
    });
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const found = /Yardmaster listening on (\S+)/.exec(out);
      if (found) {
        clearTimeout(timer);
        resolve(found[1].replace(/\/$/, ""));
      }
    });
    child.on("exit", (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, 10_000);
    child.on("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

export async function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** Runs `yardmaster token rotate --config FILE` and answers the last stdout line. */
export function rotateToken(config: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, "token", "rotate", "--config", config],
      { env: cleanEnv() },
      (error, stdout) => {
        if (error) return reject(error);
        const lines = stdout.trim().split("\n");
        resolve(lines[lines.length - 1].trim());
      },
    );
  });
}

/** Polls `probe` until it answers something truthy; fails after `ms` with `what`. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T> | T,
  ms = 10_000,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
