// Failover time on PostgreSQL: two `yardmaster serve` processes on one schema; an attempt runs
// on one, which is killed with SIGKILL; measured is the time from the kill until the attempt
// is in progress on the survivor (polled every 10 ms over HTTP). Also the same after SIGSTOP
// (a paused server keeps its connection, so only its lease tells), with a 3 s lease.
//   node --import tsx bench/failover.ts [rounds=5]
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { findPostgresBin, startPostgresCluster } from "../test/support/postgres-cluster.ts";

const ROOT = join(import.meta.dirname, "..");
const BIN = join(ROOT, "bin", "yardmaster.mjs");
const rounds = Number(process.argv[2] ?? 5);

const WORKFLOW = `import { workflow } from "yardmaster";
export const hold = workflow("hold");
hold.node({ start: true, timeout: 300 }, async function wait({}: any, _: unknown, ctx: any) {
  await new Promise((resolve) => ctx.signal.addEventListener("abort", resolve));
  return "stopped";
});
`;
const TOML = `[server]
host = "127.0.0.1"
port = 0
lease = 3
[pools.default]
capacity = 1
[workflows.hold]
target = "wf.ts:hold"
`;

interface Server {
  url: string;
  child: ChildProcess;
}

function start(dir: string, store: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    [BIN, "serve", "--config", "yardmaster.toml", "--store", store],
    {
      cwd: dir,
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (line) => {
      const url = /listening on (\S+)/.exec(line)?.[1];
      if (url) resolve({ url, child });
      else reject(new Error(`unexpected line: ${line}`));
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
  });
}

async function json(url: string, init?: RequestInit): Promise<any> {
  return (await fetch(url, init)).json();
}

/** The task of the run once it is in progress on a server: [task id, server id]. */
async function runningOn(url: string, runId: string, not?: string): Promise<[number, string]> {
  for (;;) {
    const run = await json(`${url}/api/runs/${runId}`);
    const t = run.tasks?.[0];
    if (t?.status === "in_progress" && t.server_id && t.server_id !== not)
      return [t.id, t.server_id];
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function round(dir: string, store: string, signal: "SIGKILL" | "SIGSTOP"): Promise<number> {
  const servers = [await start(dir, store), await start(dir, store)];
  try {
    const ids = await Promise.all(
      servers.map(async (s) => (await json(`${s.url}/api/health`)).server_id),
    );
    const { run_id } = await json(`${servers[0].url}/api/workflows/hold/runs`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ title: "f" }),
    });
    const [, owner] = await runningOn(servers[0].url, run_id);
    const victim = servers[ids.indexOf(owner)];
    const survivor = servers[1 - ids.indexOf(owner)];
    const killed = performance.now();
    victim.child.kill(signal);
    await runningOn(survivor.url, run_id, owner);
    const ms = performance.now() - killed;
    await json(`${survivor.url}/api/runs/${run_id}/cancel`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    });
    return ms;
  } finally {
    for (const s of servers) {
      s.child.kill("SIGCONT");
      s.child.kill("SIGKILL");
    }
  }
}

const bin = await findPostgresBin();
if (!bin) throw new Error("no PostgreSQL binaries found");
const cluster = await startPostgresCluster(bin);
const dir = mkdtempSync(join(ROOT, "tmp", "failover-"));
try {
  writeFileSync(join(dir, "wf.ts"), WORKFLOW);
  writeFileSync(join(dir, "yardmaster.toml"), TOML);
  for (const signal of ["SIGKILL", "SIGSTOP"] as const) {
    const times: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const store = `${cluster.url}${cluster.url.includes("?") ? "&" : "?"}schema=failover_${signal.toLowerCase()}_${i}`;
      times.push(await round(dir, store, signal));
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    console.log(
      `${signal}: failover median ${median.toFixed(0)} ms, min ${times[0]!.toFixed(0)}, max ${times.at(-1)!.toFixed(0)} (${rounds} rounds, lease 3 s, heartbeat 1 s)`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await cluster.stop();
}
