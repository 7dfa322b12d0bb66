// What health, readiness and metrics cost on a store with many open runs:
//   node --import tsx bench/health-load.ts [runs] [callers] [seconds]      (10000, 20, 10)
// Seeds a SQLite store with `runs` running runs, each with one attempt waiting on an unanswered
// request (written through the Store, with the store contract's records), starts `yardmaster serve`
// on it in a process of its own, then measures, from this process:
// - GET /api/health, /api/health/ready and /metrics one at a time (latency percentiles, and the
//   server's CPU time per call, from /proc);
// - `callers` clients calling GET /api/health back to back for `seconds` (requests per second),
//   while one more client calls GET /api/me, whose latency shows what the load costs others.
// Prints one JSON object. Runs from any checkout whose Store has insertRun/insertTask/
// updateTask/insertRequest, so a build before a change can be measured with the same script.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { openStore } from "../src/server/start.ts";
import { requestInput, runInput, taskInput } from "../test/stores/contract/fixtures.ts";
import { latencies } from "./figures.ts";
import { HttpClient } from "./http-client.ts";
import { cpuMs } from "./server-handle.ts";

const [runs = 10_000, callers = 20, seconds = 10] = process.argv.slice(2).map(Number);
const ROOT = join(import.meta.dirname, "..");

async function seed(file: string): Promise<void> {
  const store = await openStore(`sqlite:${file}`);
  for (let done = 0; done < runs; done += 500) {
    await store.transact(async (tx) => {
      for (let i = done; i < Math.min(runs, done + 500); i++) {
        const run = await tx.insertRun(runInput({ workflow: "asker", status: "running" }));
        const task = await tx.insertTask(taskInput(run.id, { node: "decide" }));
        await tx.updateTask(task.id, { status: "waiting", started: Date.now() });
        await tx.insertRequest(requestInput(run.id, task.id, { node: "decide" }));
      }
    });
  }
  await store.close();
}

async function serve(dir: string): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(ROOT, "bin", "yardmaster.mjs"), "serve"], {
    cwd: dir,
    stdio: ["ignore", "pipe", "ignore"],
  });
  const line = await new Promise<string>((done) =>
    createInterface({ input: child.stdout! }).once("line", done),
  );
  return {
    url: /listening on (\S+)/.exec(line)![1],
    pid: child.pid!,
    stop: () =>
      new Promise((done) => {
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}

async function timed(client: HttpClient, pid: number, path: string, count: number) {
  const ms: number[] = [];
  const cpu = cpuMs(pid);
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const reply = await client.request("GET", path);
    if (reply.status >= 500 || reply.status === 404) throw new Error(`${path}: ${reply.status}`);
    ms.push(performance.now() - start);
  }
  return { ...latencies(ms), server_cpu_ms_per_call: round3((cpuMs(pid) - cpu) / count) };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

async function underLoad(url: string) {
  const client = new HttpClient(url, { sockets: callers + 1 });
  const until = performance.now() + seconds * 1000;
  let served = 0;
  const caller = async () => {
    while (performance.now() < until) {
      await client.request("GET", "/api/health");
      served += 1;
    }
  };
  const me: number[] = [];
  const watcher = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      await client.request("GET", "/api/me");
      me.push(performance.now() - start);
    }
  };
  await Promise.all([...Array.from({ length: callers }, caller), watcher()]);
  client.close();
  return { health_per_s: Math.round(served / seconds), me_ms: latencies(me) };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ym-health-load-"));
  try {
    const flows = join(ROOT, "test", "fixtures", "e2e", "flows.ts");
    writeFileSync(
      join(dir, "yardmaster.toml"),
      `[server]\nport = 0\nstore = "sqlite:store.db"\n[pools.default]\ncapacity = 8\n` +
        `[workflows.asker]\ntarget = "${flows}:asker"\n`,
    );
    await seed(join(dir, "store.db"));
    const server = await serve(dir);
    const client = new HttpClient(server.url);
    const idle = {
      health_ms: await timed(client, server.pid, "/api/health", 200),
      ready_ms: await timed(client, server.pid, "/api/health/ready", 200).catch(() => null),
      metrics_ms: await timed(client, server.pid, "/metrics", 200).catch(() => null),
      me_ms: await timed(client, server.pid, "/api/me", 200),
    };
    client.close();
    const loaded = await underLoad(server.url);
    await server.stop();
    console.log(JSON.stringify({ runs, callers, seconds, idle, loaded }, null, 1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
