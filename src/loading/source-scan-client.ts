// Runs the source scan (source-scan.ts) in a short-lived child process. The scan needs the
// TypeScript compiler, which holds about 100 MiB once loaded, and an ES module cannot be
// unloaded: in the server that memory would stay resident for good, though the scan only runs
// when a workflow is registered or its source is read. (A worker thread would not do: its heap
// counts in the server's peak, and freed arenas are not all returned.) One child serves a burst
// of scans, such as every registration at startup, and exits once idle. If the child cannot be
// used, the scan runs in process, so the answer never depends on it.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { ScannedNode } from "./source-scan.ts";

type Scan = Map<string, ScannedNode>;
type Reply = { id: number; nodes?: Array<[string, ScannedNode]>; error?: string };

const CHILD = fileURLToPath(new URL("./source-scan-child.mjs", import.meta.url));
/** How long an idle child waits for the next scan before it is let go. */
const IDLE_MS = 2000;
/**
 * How long one scan may take in the child. Loading the compiler takes about a second; a child
 * that has not answered by then is wedged: it is killed, and the scan runs in process.
 */
const SCAN_MS = 30_000;

interface Child {
  proc: ChildProcess;
  waiting: Map<number, { resolve: (scan: Scan) => void; reject: (e: Error) => void }>;
}

let current: Child | null = null;
let nextId = 1;
let idle: NodeJS.Timeout | undefined;

function spawnChild(): Child {
  const proc = fork(CHILD, [], { execArgv: [], stdio: ["ignore", "ignore", "ignore", "ipc"] });
  const child: Child = { proc, waiting: new Map() };
  proc.on("message", (reply: Reply) => {
    const entry = child.waiting.get(reply.id);
    if (!entry) return;
    child.waiting.delete(reply.id);
    if (reply.error !== undefined) entry.reject(new Error(reply.error));
    else entry.resolve(new Map(reply.nodes));
    if (child.waiting.size === 0) letGoSoon(child);
  });
  const fail = (err: Error) => {
    if (current === child) current = null;
    for (const entry of child.waiting.values()) entry.reject(err);
    child.waiting.clear();
  };
  proc.on("error", fail);
  proc.on("exit", () => fail(new Error("source scan process exited")));
  return child;
}

/** Neither an idle child nor its channel keeps the server's event loop alive. */
function letGoSoon(child: Child): void {
  child.proc.channel?.unref();
  child.proc.unref();
  clearTimeout(idle);
  idle = setTimeout(() => {
    if (current !== child || child.waiting.size > 0) return;
    current = null;
    child.proc.disconnect();
  }, IDLE_MS);
  idle.unref();
}

function scanInChild(file: string, text: string, receiver?: string): Promise<Scan> {
  clearTimeout(idle);
  current ??= spawnChild();
  const child = current;
  child.proc.ref();
  child.proc.channel?.ref();
  const id = nextId++;
  return new Promise<Scan>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.proc.kill("SIGKILL"); // its exit rejects every scan it holds, this one included
    }, SCAN_MS);
    const settle =
      <T>(finish: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        finish(value);
      };
    child.waiting.set(id, { resolve: settle(resolve), reject: settle(reject) });
    child.proc.send({ id, file, text, receiver });
  });
}

/** `scanNodes` of source-scan.ts, computed outside the server's heap when possible. */
export async function scanSource(file: string, text: string, receiver?: string): Promise<Scan> {
  try {
    return await scanInChild(file, text, receiver);
  } catch {
    const { scanNodes } = await import("./source-scan.ts");
    return scanNodes(file, text, receiver);
  }
}
