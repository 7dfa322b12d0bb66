// A throwaway Redis for BullMQ: `redis-server` (Debian's, `apt-get install redis-server`) on a
// free loopback port, its files in a fresh temp folder removed afterwards. Persistence is the
// append-only file with `appendfsync` PEERS_REDIS_FSYNC (default `everysec`: Redis acknowledges
// a write before it reaches the disk and may lose the last second of them on a crash, so BullMQ
// on it is not durable the way the PostgreSQL and SQLite runs are; `always` fsyncs every write
// before answering), no RDB snapshots, `maxmemory-policy noeviction` as BullMQ requires.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { waitExit } from "../server-handle.ts";

export type RedisFsync = "always" | "everysec" | "no";

export function redisFsync(): RedisFsync {
  const raw = process.env.PEERS_REDIS_FSYNC ?? "everysec";
  if (raw === "always" || raw === "everysec" || raw === "no") return raw;
  throw new Error(`PEERS_REDIS_FSYNC must be always, everysec or no, not ${raw}`);
}

/** `redis-server --version`'s version, or null when there is no redis-server. */
export function redisVersion(): string | null {
  try {
    const out = execFileSync("redis-server", ["--version"], { encoding: "utf8" });
    return /v=(\S+)/.exec(out)?.[1] ?? out.trim();
  } catch {
    return null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const running = new Set<ChildProcess>();
export function killAllRedis(): void {
  for (const child of running) child.kill("SIGKILL");
  running.clear();
}

export interface Redis {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<Redis> {
  const dir = mkdtempSync(join(tmpdir(), "ym-peers-redis-"));
  const port = await freePort();
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    "yes",
    "--appendfsync",
    redisFsync(),
    "--maxmemory-policy",
    "noeviction",
  ];
  const child = spawn("redis-server", args, { stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  let out = "";
  const stop = async () => {
    child.kill("SIGTERM");
    await waitExit(child, 10_000);
    running.delete(child);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server not ready\n${out}`)), 20_000);
      const onData = (chunk: Buffer) => {
        out = (out + chunk.toString("utf8")).slice(-4000);
        if (out.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}\n${out}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { port, pid: child.pid!, stop };
}
