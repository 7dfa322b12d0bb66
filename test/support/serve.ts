// The one way the suite starts a real `yardmaster serve` process: in a folder of its own (its
// working folder), with the arguments, configuration and environment a test gives, on the URL it
// prints in its one ready line, the first line of its stdout (`--port 0` or `port = 0` lets the
// OS choose). The process knows nothing of the test: it is driven over HTTP only. Everything it
// writes is kept (`output()`), printed when the test that started it fails, and carried by the
// error when it does not start.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { onTestFailed } from "vitest";
import { type Reply, request } from "./http-client.ts";

const ROOT = join(import.meta.dirname, "..", "..");
export const BIN = join(ROOT, "bin", "yardmaster.mjs");

export interface ServeOptions {
  /** The working folder: a relative `--config`, `--store` or `sqlite:` path resolves here. */
  dir: string;
  /** Written to `<dir>/yardmaster.toml` and passed as `--config`. */
  toml?: string;
  /** `--store` (a `sqlite:` path or a `postgres://` URL). */
  store?: string;
  /** More arguments after `serve` (`--port 0`, `--log-format pretty`, ...). */
  args?: string[];
  /** Variables added to the environment (which never carries the developer's client settings). */
  env?: Record<string, string>;
  /** Collects what the server writes to stderr (its log), line by line. */
  log?: string[];
  /** Collects the process, for `killAll` in an afterEach. */
  children?: ChildProcess[];
  /** How long the ready line may take. */
  readyMs?: number;
  /** The program and its first arguments, in place of `node bin/yardmaster.mjs` (`npx yardmaster`). */
  command?: string[];
  /** Its own process group, so that a test can kill a wrapper (npx) with what it started. */
  detached?: boolean;
}

/** A server that exited before its ready line: its exit code and everything it wrote. */
export class ServeExit extends Error {
  constructor(
    readonly code: number | null,
    readonly output: string,
  ) {
    super(`yardmaster serve exited ${code} before it was ready:\n${output}`);
  }
}

export interface Served {
  url: string;
  /** The line the server printed once ready (`Yardmaster listening on <url>`). */
  readyLine: string;
  dir: string;
  /** The configuration file, when the options wrote one. */
  config: string | undefined;
  child: ChildProcess;
  /** Resolves with the exit code (null after a signal) once the process is gone. */
  exited: Promise<number | null>;
  /** Resolves once the collected log (`ServeOptions.log`) has every line the server wrote. */
  logged: Promise<unknown>;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Reply>;
}

/** A fresh folder for a server's files under the repository's ignored `tmp/`, so that workflow
 * files written there import "yardmaster" through the package's own exports map. */
export function serverDir(prefix = "srv-"): string {
  mkdirSync(join(ROOT, "tmp"), { recursive: true });
  return mkdtempSync(join(ROOT, "tmp", prefix));
}

// The child must not inherit a developer's client settings: a test says what it sends.
function serverEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  if (!("YARDMASTER_TOKEN" in extra)) delete env.YARDMASTER_TOKEN;
  if (!("YARDMASTER_URL" in extra)) delete env.YARDMASTER_URL;
  return env;
}

/** Starts `yardmaster serve` and resolves once it printed its ready line (bounded). */
export async function serve(options: ServeOptions): Promise<Served> {
  const [program, ...first] = options.command ?? [process.execPath, BIN];
  const args = [...first, "serve"];
  let config: string | undefined;
  if (options.toml !== undefined) {
    config = join(options.dir, "yardmaster.toml");
    writeFileSync(config, options.toml);
    args.push("--config", config);
  }
  if (options.store !== undefined) args.push("--store", options.store);
  args.push(...(options.args ?? []));
  const child = spawn(program!, args, {
    cwd: options.dir,
    env: serverEnv(options.env),
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.detached ?? false,
  });
  options.children?.push(child);
  let output = "";
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const log = options.log;
  let logged: Promise<unknown> = Promise.resolve();
  if (log) {
    const lines = createInterface({ input: child.stderr! });
    lines.on("line", (line) => log.push(line));
    logged = new Promise((done) => lines.once("close", done));
  }
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  const closed = new Promise((done) => child.once("close", done));
  try {
    onTestFailed(() => {
      process.stderr.write(`\n[yardmaster serve in ${options.dir}]\n${output}\n`);
    });
  } catch {
    // Started outside a test (a beforeAll): the error of a failed start still carries the log.
  }
  const readyMs = options.readyMs ?? 20_000;
  const readyLine = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`yardmaster serve printed no ready line in ${readyMs} ms:\n${output}`));
    }, readyMs);
    // The ready line is the first thing the server prints: anything before it is a failure,
    // unless a wrapper (`command`, npx) may print its own lines first.
    let seen = false;
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const ready = /listening on \S+/.test(line);
      if (seen || (!ready && options.command)) return;
      seen = true;
      clearTimeout(timer);
      if (ready) return done(line);
      child.kill("SIGKILL");
      fail(new Error(`yardmaster serve printed ${JSON.stringify(line)} before its ready line`));
    });
    void exited.then(async (code) => {
      clearTimeout(timer);
      // What it wrote last may still be in the pipes when the exit is reported.
      await closed;
      fail(new ServeExit(code, output));
    });
  });
  // A wildcard bind is reached over loopback.
  const printed = /listening on (\S+)/.exec(readyLine)![1]!.replace(/\/$/, "");
  const url = printed.replace("//0.0.0.0:", "//127.0.0.1:");
  return {
    url,
    readyLine,
    dir: options.dir,
    config,
    child,
    exited,
    logged,
    output: () => output,
    call: (method, path, body, headers) => request(url, method, path, body, headers),
  };
}

/** SIGTERM, the way an operator stops it; SIGKILL if it has not exited after 10 s. */
export async function stop(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null || served.child.signalCode !== null) return;
  served.child.kill("SIGTERM");
  const timer = setTimeout(() => served.child.kill("SIGKILL"), 10_000);
  await served.exited;
  clearTimeout(timer);
}

/** SIGKILL: nothing of the process runs after this, no stop handler, no last commit. */
export async function crash(served: Served): Promise<void> {
  served.child.kill("SIGKILL");
  await served.exited;
}

export function killAll(children: ChildProcess[]): void {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

/** Runs `yardmaster serve ...args` in `dir` to its exit (`--print-config`, a refused start). */
export function serveOnce(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runBin(dir, ["serve", ...args], env);
}

/** Runs `yardmaster token rotate --config FILE` and answers the token (its last stdout line). */
export async function rotateToken(config: string): Promise<string> {
  const { code, stdout, stderr } = await runBin(ROOT, ["token", "rotate", "--config", config]);
  if (code !== 0) throw new Error(`yardmaster token rotate exited ${code}: ${stderr}`);
  const lines = stdout.trim().split("\n");
  return lines[lines.length - 1]!.trim();
}

function runBin(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: dir, env: serverEnv(env) },
      (error, stdout, stderr) => {
        done({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr });
      },
    );
  });
}
