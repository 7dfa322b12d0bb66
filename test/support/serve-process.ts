// `yardmaster serve` as a real process in a folder of its own, for the crash tests: they SIGKILL
// it and start it again on the same store. Plus a small JSON client and the agent command they
// configure: the scripted ACP agent behind a shell that leaves its task token (`token`) and its
// pid, which is also its process group (`agent.pid`; exec keeps the pid), in the folder, and
// counts the agents started (`starts`).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { SCRIPTED_AGENT } from "./agent-server.ts";

const BIN = resolve("bin/yardmaster.mjs");

export interface Served {
  url: string;
  child: ChildProcess;
  exited: Promise<unknown>;
  /** Resolves once the collected log (`ServeOptions.log`) has every line the server wrote. */
  logged: Promise<unknown>;
}

export const AGENT_COMMAND = JSON.stringify([
  "sh",
  "-c",
  `printf %s "$YARDMASTER_TOKEN" > token; echo $$ > agent.pid; echo $$ >> starts; exec node ${SCRIPTED_AGENT}`,
]);

export interface ServeOptions {
  /** More arguments after `serve`. */
  args?: string[];
  /** Variables added to the test's environment. */
  env?: Record<string, string>;
  /** Collects what the server writes to stderr (its log), line by line; inherited otherwise. */
  log?: string[];
}

/** Starts `yardmaster serve` in `dir` (its `yardmaster.toml`); `children` collects it for cleanup. */
export async function serveIn(
  dir: string,
  children: ChildProcess[],
  options: ServeOptions = {},
): Promise<Served> {
  const child = spawn(process.execPath, [BIN, "serve", ...(options.args ?? [])], {
    cwd: dir,
    // A log not collected goes to the test's stderr: warnings and errors only, so a passing
    // run stays quiet.
    env: {
      ...process.env,
      ...(options.log ? {} : { YARDMASTER_LOG_LEVEL: "warn" }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", options.log ? "pipe" : "inherit"],
  });
  children.push(child);
  const log = options.log;
  let logged: Promise<unknown> = Promise.resolve();
  if (log) {
    const lines = createInterface({ input: child.stderr! });
    lines.on("line", (line) => log.push(line));
    logged = new Promise((done) => lines.once("close", done));
  }
  const exited = new Promise((done) => child.once("exit", done));
  const line = await new Promise<string>((done, fail) => {
    createInterface({ input: child.stdout! }).once("line", done);
    void exited.then(() => fail(new Error("yardmaster serve exited before it was ready")));
  });
  return { url: /listening on (\S+)/.exec(line)![1], child, exited, logged };
}

/** SIGKILL: nothing of the process runs after this, no stop handler, no last commit. */
export async function crash(served: Served): Promise<void> {
  served.child.kill("SIGKILL");
  await served.exited;
}

export async function stop(served: Served): Promise<void> {
  served.child.kill("SIGTERM");
  await served.exited;
}

export function killAll(children: ChildProcess[]): void {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
}

export async function call(
  url: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, init);
  return { status: res.status, body: await res.json().catch(() => null) };
}

export const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

/** A fixed port, so an orphaned agent's URL reaches the restarted server too. */
export const somePort = () => 20000 + Math.floor(Math.random() * 20000);

/** A config serving the one workflow `name` (from `<name>.ts`) with the agent above, on `port`. */
export const agentConfig = (name: string, port: number) => `[server]
host = "127.0.0.1"
port = ${port}
[pools.default]
capacity = 2
[workflows.${name}]
target = "${name}.ts:${name}"
[agents.default]
command = ${AGENT_COMMAND}
`;

/** The first pending request of run `runId`. */
export const pendingOf = async (url: string, runId: string) =>
  (await call(url, `/api/requests?pending=true&run=${runId}`)).body[0];

/** Runs `yardmaster serve ...args` in `dir` to its exit (`--print-config`, a refused start). */
export function serveOnce(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, "serve", ...args], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
  child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
  return new Promise((done) =>
    child.once("close", (code) =>
      done({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
      }),
    ),
  );
}

/** The `[workflows.flow]` row of the workflow `flowFolder` writes. */
export const FLOW_ROW = '[workflows.flow]\ntarget = "flow.ts:flow"\n';

/**
 * A fresh folder for `serveIn`: a one-node workflow `flow` in `flow.ts`, and a configuration on
 * 127.0.0.1 with an OS-chosen port, `serverKeys` added to its [server] table and `rows` after.
 */
export function flowFolder(prefix: string, serverKeys = "", rows = ""): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  writeFileSync(
    join(dir, "flow.ts"),
    `import { workflow } from "yardmaster";
export const flow = workflow("flow");
flow.node({ start: true }, async function only() { return 1; });
`,
  );
  const server = `[server]\nhost = "127.0.0.1"\nport = 0\n${serverKeys}\n`;
  writeFileSync(join(dir, "yardmaster.toml"), `${server}${rows}`);
  return dir;
}

/**
 * True when the server answers its health check: its event loop is free. The wait is generous
 * and bounded, so a stalled server fails a test instead of hanging it; never a timing claim.
 */
export async function answersHealth(url: string): Promise<boolean> {
  const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(15_000) });
  return res.status === 200;
}
