// The agent's operating-system process. It is started in a process group of its own
// (`detached`), so ending it also ends whatever it started (shells, language servers, MCP
// helpers): SIGTERM to the whole group, then SIGKILL after a short grace.
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import type { AgentConfig } from "../config/server-config.ts";

const STDERR_KEEP = 4000;

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the program could not be started at all. */
  error?: Error;
}

export interface AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly pid: number | undefined;
  /** Settles once the process has exited (or failed to start); never rejects. */
  readonly exited: Promise<ExitInfo>;
  /** Settles once stderr is closed (everything the agent wrote there was read). */
  readonly drained: Promise<void>;
  /** Null while the process runs. */
  exitInfo(): ExitInfo | null;
  /** The last few thousand characters it wrote to stderr, for error messages. */
  stderrTail(): string;
  /** Sends SIGTERM to the group now; no waiting. */
  interrupt(): void;
  /** Ends the group: SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  terminate(graceMs: number): Promise<void>;
}

function signalGroup(pid: number | undefined, signal: NodeJS.Signals | 0): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // ESRCH: nobody left in the group
  }
}

const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export function spawnAgent(config: AgentConfig, extraEnv: Record<string, string>): AgentProcess {
  const [program, ...leading] = config.command;
  const child = spawn(program, [...leading, ...config.args], {
    cwd: config.cwd,
    env: { ...process.env, ...config.env, ...extraEnv },
    detached: true,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stderr = "";
  let info: ExitInfo | null = null;
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (text: string) => {
    stderr = (stderr + text).slice(-STDERR_KEEP);
  });
  // A write to a process that already exited fails with EPIPE; the exit is reported elsewhere.
  for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on("error", () => {});
  const drained = new Promise<void>((resolve) => child.stderr.once("close", () => resolve()));
  const exited = new Promise<ExitInfo>((resolve) => {
    const end = (what: ExitInfo) => {
      info = what;
      resolve(what);
    };
    child.once("exit", (code, signal) => end({ code, signal }));
    child.once("error", (error) => {
      if (child.pid === undefined) end({ code: null, signal: null, error });
    });
  });
  /** Waits until the leader has exited and nobody is left in its group, at most `ms`. */
  const settle = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      if (info && !signalGroup(child.pid, 0)) return;
      await (info ? delay(25) : Promise.race([exited, delay(25)]));
    }
  };
  const terminate = async (graceMs: number) => {
    child.stdin.end();
    signalGroup(child.pid, "SIGTERM");
    await settle(graceMs);
    if (!info || signalGroup(child.pid, 0)) signalGroup(child.pid, "SIGKILL");
    await settle(graceMs);
  };
  return {
    child,
    pid: child.pid,
    exited,
    drained,
    exitInfo: () => info,
    stderrTail: () => stderr.trim(),
    interrupt: () => void signalGroup(child.pid, "SIGTERM"),
    terminate,
  };
}

/** A one-line description of how the process ended, for failure messages. */
export function describeExit(info: ExitInfo | null, stderr: string): string {
  let text = "the agent process is still running";
  if (info?.error) text = `the agent could not be started: ${info.error.message}`;
  else if (info?.signal) text = `the agent process was killed by ${info.signal}`;
  else if (info) text = `the agent process exited with code ${info.code}`;
  const last = stderr.split(/\r?\n/).filter(Boolean).slice(-3).join(" | ");
  return last ? `${text}; stderr: ${last}` : text;
}
