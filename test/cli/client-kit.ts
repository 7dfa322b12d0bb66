// Shared by the cli-client tests: run `yardmaster` in-process against a real server, with the
// environment, terminal and stop signal of a ClientIo instead of the real process's.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";
import type { ClientIo } from "../../src/cli/client/client-io.ts";
import { main } from "../../src/cli/main.ts";

export const BIN = resolve("bin/yardmaster.mjs");

export interface CliResult {
  code: number;
  out: string;
  err: string;
  lines: string[];
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  tty?: boolean;
  signal?: AbortSignal;
}

/** Runs `yardmaster ...argv` in-process; `lines` is stdout split into lines. */
export async function cli(options: CliOptions, ...argv: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const io: ClientIo = {
    cwd: process.cwd(),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: options.env ?? {},
    stdoutIsTty: options.tty ?? false,
    signal: options.signal,
  };
  const code = await main(argv, io);
  const text = out.join("\n");
  return { code, out: text, err: err.join("\n"), lines: text === "" ? [] : text.split("\n") };
}

/** A CLI bound to one server: `at(url)("runs")`. */
export function at(url: string, env: Record<string, string> = {}) {
  return (...argv: string[]) => cli({ env: { YARDMASTER_URL: url, ...env } }, ...argv);
}

/** A started in-process command that keeps running (tail) and what it printed so far. */
export function startCli(options: CliOptions, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const controller = new AbortController();
  const io: ClientIo = {
    cwd: process.cwd(),
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: options.env ?? {},
    stdoutIsTty: options.tty ?? false,
    signal: controller.signal,
  };
  const done = main(argv, io);
  return { out, err, done, stop: () => controller.abort() };
}

/** A port nothing listens on now: taken from the OS, then released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

/** The real binary as a child process, with its output collected as it comes. */
export function spawnCli(args: string[], env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: "1", ...env },
    stdio: "pipe",
  });
  const output = { stdout: "", stderr: "" };
  child.stdout?.on("data", (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return { child, output, exited };
}
