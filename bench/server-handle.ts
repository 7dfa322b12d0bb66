// Starting and stopping the measured server (bench/server-process.ts) as a child process on a
// fresh SQLite file in a temp directory, or (BENCH_STORE=postgres) on a fresh schema of the
// bench's PostgreSQL cluster (bench/postgres-bench.ts). BENCH_SERVERS=N (default 1, PostgreSQL
// only) starts N server processes on the same schema; the handle then sums their CPU and
// memory and lists every URL, and the session spreads the load round-robin over them. Every
// child is tracked so the driver can end it on any exit path, and every wait here is bounded.
import { type ChildProcess, spawn } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { benchStore, freshPostgresUrl, postgresCpuMs, schemaBytes } from "./postgres-bench.ts";

const ROOT = join(import.meta.dirname, "..");
const SERVER_SCRIPT = join(import.meta.dirname, "server-process.ts");
const WORKFLOWS = join(import.meta.dirname, "workflows.ts");

export interface ServerSpec {
  /** Pool name -> capacity. */
  pools: Record<string, number>;
  /** Workflow export name (in bench/workflows.ts) -> pool. */
  workflows: Record<string, string>;
  synchronous?: "FULL";
  /** Write a CPU profile of the serving window (bench/cpu-profiler.ts) to this file. */
  profileFile?: string;
  /** Count and time the store calls (bench/store-trace.ts) into this JSON file. */
  traceFile?: string;
  /** Record latency, GC, event-loop delay and memory (bench/latency-probe.ts) into this file. */
  latencyFile?: string;
}

export interface BenchServer {
  /** The first server's URL. */
  url: string;
  /** Every server's URL (BENCH_SERVERS of them), the first one first. */
  urls: string[];
  pid: number;
  /** `sqlite` or `postgres` (BENCH_STORE). */
  store: string;
  /** CPU time the PostgreSQL cluster has used so far, in ms (0 on SQLite). */
  storeCpuMs(): number;
  synchronous: string;
  /** Peak resident set (VmHWM) so far, in MiB. */
  peakRssMib(): number;
  /** CPU time (user + system, all threads) the server has used so far, in ms. */
  cpuMs(): number;
  /** The same, of the main thread only (the event loop: HTTP, engine, SQLite statements). */
  mainThreadCpuMs(): number;
  /**
   * Time the main thread was ready to run but waited for a CPU (other threads or processes had
   * both cores), in ms: what `mainThreadCpuMs` misses of the wall time besides being idle.
   */
  mainThreadWaitMs(): number;
  /** CPU time so far per thread name (`/proc/<pid>/task/<tid>/comm`, summed over servers). */
  threadsCpuMs(): Map<string, number>;
  /**
   * Bytes the server has sent to storage so far (`write_bytes` of /proc/<pid>/io: WAL frames
   * and checkpointed pages). It moves far less with machine load than any time does, so it
   * shows what a change to the schema or the statements did to the writes.
   */
  diskBytes(): number;
  /**
   * Stops the server (idempotent); answers the store's bytes on disk after its clean close,
   * then removes the temp directory.
   */
  stop(): Promise<number>;
}

/** Running servers and their temp directories. */
const children = new Map<ChildProcess, string>();

/** Ends every server still running and removes its directory (exit paths of the driver). */
export function killAllServers(): void {
  for (const [child, dir] of children) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
  children.clear();
}

/** BENCH_SERVERS: server processes per session (default 1). */
export function benchServers(): number {
  const n = Number(process.env.BENCH_SERVERS ?? 1);
  if (!Number.isInteger(n) || n < 1) throw new Error("BENCH_SERVERS must be a whole number >= 1");
  return n;
}

function configToml(store: string, spec: ServerSpec): string {
  const lines = ["[server]", 'host = "127.0.0.1"', "port = 0"];
  lines.push(`store = ${JSON.stringify(store)}`, "sse_replay_cap = 10000");
  // The workloads' workflows live beside this file, outside the server's own folder.
  lines.push(`workflow_roots = [${JSON.stringify(import.meta.dirname)}]`, "");
  for (const [name, capacity] of Object.entries(spec.pools)) {
    lines.push(`[pools.${name}]`, `capacity = ${capacity}`, "");
  }
  for (const [name, pool] of Object.entries(spec.workflows)) {
    lines.push(`[workflows.${name}]`, `target = "${WORKFLOWS}:${name}"`, `pool = "${pool}"`, "");
  }
  return lines.join("\n");
}

function readStatus(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
  return kib ? Number(kib) / 1024 : Number.NaN;
}

/**
 * utime + stime from /proc/<pid>/stat (fields 14 and 15, in clock ticks of 10 ms). With
 * `/proc/<pid>/task/<pid>/stat` as `file`, the same for the process's main thread alone.
 */
export function cpuMs(pid: number, file = `/proc/${pid}/stat`): number {
  const stat = readFileSync(file, "utf8");
  // The command name (field 2) may hold spaces; the fields after its closing paren are fixed.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time so far of each of a process's threads, by name (`main` for the main thread; below).
 * A thread that exited is not counted.
 */
export function threadsCpuMs(pid: number, into = new Map<string, number>()): Map<string, number> {
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      // Node's threads keep the process's name (V8's helpers, libuv's pool, worker threads):
      // they are told apart by their id's distance from the process's, which follows their
      // creation (+2 to +5: V8's platform workers, GC and compiler helpers).
      const name =
        tid === String(pid) ? "main" : comm === "node" ? `node+${Number(tid) - pid}` : comm;
      const ms = cpuMs(pid, `/proc/${pid}/task/${tid}/stat`);
      into.set(name, (into.get(name) ?? 0) + ms);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return into;
}

/** `after - before` per thread name, largest first, as `name ms, ...` (ms rounded). */
export function threadsDelta(before: Map<string, number>, after: Map<string, number>): string {
  return [...after]
    .map(([name, ms]) => [name, ms - (before.get(name) ?? 0)] as const)
    .filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([name, ms]) => `${name} ${Math.round(ms)}`)
    .join(", ");
}

/** Run-queue wait of a thread: field 2 of its schedstat, in nanoseconds. */
function runQueueWaitMs(file: string): number {
  return Number(readFileSync(file, "utf8").split(" ")[1]) / 1e6;
}

function diskBytes(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, "utf8");
  return Number(/^write_bytes:\s+(\d+)/m.exec(io)?.[1] ?? Number.NaN);
}

function storeBytes(dir: string): number {
  let total = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    const file = join(dir, `store.db${suffix}`);
    if (existsSync(file)) total += statSync(file).size;
  }
  return total;
}

/** Resolves with the first stdout line; rejects on exit or after `ms`. */
function firstLine(child: ChildProcess, stderr: () => string, ms: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = "";
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`${why}\n${stderr()}`));
    };
    const timer = setTimeout(() => fail(`server did not start within ${ms} ms`), ms);
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      const end = buffer.indexOf("\n");
      if (end < 0) return;
      clearTimeout(timer);
      resolve(buffer.slice(0, end));
    });
    child.once("exit", (code) => fail(`server exited with ${code} before listening`));
  });
}

/** Resolves when `child` has exited, killing it (SIGKILL) after `ms`. */
export function waitExit(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve();
    }, ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** One server process on `configFile`; `stop` ends it (idempotent). */
async function startProcess(configFile: string, dir: string, spec: ServerSpec, suffix: string) {
  // BENCH_NODE_FLAGS: node/V8 flags for the server process only (experiments, e.g. JIT tiers).
  const flags = (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
  const args = [...flags, "--import", "tsx", SERVER_SCRIPT, configFile];
  if (spec.synchronous) args.push(`--synchronous=${spec.synchronous}`);
  const env = { ...process.env };
  const named = (file: string) => (suffix ? file.replace(/(\.[a-z]+)$/, `${suffix}$1`) : file);
  if (spec.profileFile) env.BENCH_PROFILE_FILE = named(spec.profileFile);
  if (spec.traceFile) env.BENCH_TRACE_FILE = named(spec.traceFile);
  if (spec.latencyFile) env.BENCH_LATENCY_FILE = named(spec.latencyFile);
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  children.set(child, dir);
  let errText = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errText = (errText + chunk.toString("utf8")).slice(-4000);
    // BENCH_ECHO=1: the server's stderr on ours too (diagnostics it prints while measured).
    if (process.env.BENCH_ECHO) process.stderr.write(chunk);
  });
  let stopped: Promise<void> | null = null;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      child.kill("SIGTERM");
      await waitExit(child, 20_000);
      children.delete(child);
    })();
    return stopped;
  };
  try {
    const ready = JSON.parse(await firstLine(child, () => errText, 60_000));
    const pid = child.pid!;
    return { ready, pid, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

type Started = Awaited<ReturnType<typeof startProcess>>;

const sum = (all: Started[], f: (pid: number) => number) =>
  all.reduce((total, s) => total + f(s.pid), 0);

export async function startBenchServer(spec: ServerSpec): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), "ym-bench-"));
  const configFile = join(dir, "yardmaster.toml");
  const kind = benchStore();
  const n = benchServers();
  if (n > 1 && kind === "sqlite") throw new Error("BENCH_SERVERS > 1 needs BENCH_STORE=postgres");
  const pgTarget = kind === "postgres" ? await freshPostgresUrl() : null;
  writeFileSync(configFile, configToml(pgTarget?.url ?? `sqlite:${join(dir, "store.db")}`, spec));
  const started: Started[] = [];
  const stopAll = async () => {
    await Promise.all(started.map((s) => s.stop()));
  };
  let stopped: Promise<number> | null = null;
  const stop = (): Promise<number> => {
    stopped ??= (async () => {
      await stopAll();
      const bytes = pgTarget ? await schemaBytes(pgTarget.schema) : storeBytes(dir);
      rmSync(dir, { recursive: true, force: true });
      return bytes;
    })();
    return stopped;
  };
  try {
    // One after another: the first creates the schema, the others find it migrated.
    for (let i = 0; i < n; i++) {
      started.push(await startProcess(configFile, dir, spec, n > 1 ? `-s${i + 1}` : ""));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const main = (pid: number) => `/proc/${pid}/task/${pid}`;
  return {
    url: started[0].ready.url,
    urls: started.map((s) => s.ready.url),
    pid: started[0].pid,
    store: kind,
    synchronous: started[0].ready.synchronous,
    storeCpuMs: postgresCpuMs,
    peakRssMib: () => sum(started, (pid) => readStatus(pid, "VmHWM")),
    cpuMs: () => sum(started, (pid) => cpuMs(pid)),
    mainThreadCpuMs: () => sum(started, (pid) => cpuMs(pid, `${main(pid)}/stat`)),
    mainThreadWaitMs: () => sum(started, (pid) => runQueueWaitMs(`${main(pid)}/schedstat`)),
    threadsCpuMs: () => {
      const into = new Map<string, number>();
      for (const { pid } of started) threadsCpuMs(pid, into);
      return into;
    },
    diskBytes: () => sum(started, diskBytes),
    stop,
  };
}
