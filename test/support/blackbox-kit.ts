// Black-box kit: drives the real `yardmaster serve` process over HTTP only, the way an
// outside conformance suite would. Nothing here imports the server's own modules.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const BIN = resolve(import.meta.dirname, "../../bin/yardmaster.mjs");

export interface Served {
  url: string;
  child: ChildProcess;
  output: string[];
}

export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts the server and resolves once it printed its one ready line (bounded). */
export async function serve(config: string, store: string): Promise<Served> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--config", config, "--port", "0", "--store", store],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const output: string[] = [];
  const url = await new Promise<string>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no ready line:\n${output.join("")}`)), 15_000);
    const read = (chunk: Buffer) => {
      output.push(chunk.toString());
      const hit = /Yardmaster listening on (\S+)/.exec(output.join(""));
      if (hit) {
        clearTimeout(timer);
        done(hit[1]!.replace(/\/$/, ""));
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("exit", (code) => fail(new Error(`server exited ${code}:\n${output.join("")}`)));
  });
  return { url, child, output };
}

export async function stop(served: Served | undefined): Promise<void> {
  if (!served || served.child.exitCode !== null) return;
  const exited = once(served.child, "exit");
  served.child.kill("SIGTERM");
  const timer = setTimeout(() => served.child.kill("SIGKILL"), 8_000);
  await exited;
  clearTimeout(timer);
}

export interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await fetch(url + path, init);
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {}
  return { status: res.status, body: parsed, headers: res.headers };
}

/** Polls `probe` until it returns a non-undefined value; bounded, never a timed assertion. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  limitMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const got = await probe();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}

export interface SseFrame {
  id?: string;
  event?: string;
  data?: any;
}

/** Reads `GET /api/events` frames until `enough` says so or the bound passes. */
export async function readSse(
  url: string,
  query: string,
  enough: (frames: SseFrame[]) => boolean,
  limitMs = 8_000,
): Promise<SseFrame[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), limitMs);
  const frames: SseFrame[] = [];
  try {
    const res = await fetch(`${url}/api/events?${query}`, { signal: abort.signal });
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    while (!enough(frames)) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        frames.push(parseFrame(buffer.slice(0, cut)));
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf("\n\n");
      }
    }
  } catch (err) {
    if (!abort.signal.aborted) throw err;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  return frames;
}

function parseFrame(block: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of block.split("\n")) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const key = line.slice(0, at);
    const value = line.slice(at + 1).replace(/^ /, "");
    if (key === "id") frame.id = value;
    else if (key === "event") frame.event = value;
    else if (key === "data") frame.data = JSON.parse(value);
  }
  return frame;
}
