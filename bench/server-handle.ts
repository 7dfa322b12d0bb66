// Starting and stopping the measured server (bench/server-process.ts) as a child process on a
// fresh SQLite file in a temp directory. Every child is tracked so the driver can end it on
// any exit path, and every wait here is bounded.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

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
}

export interface BenchServer {
  url: string;
  pid: number;
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

function configToml(dir: string, spec: ServerSpec): string {
  const lines = ["[server]", 'host = "127.0.0.1"', "port = 0"];
  lines.push(`store = "sqlite:${join(dir, "store.db")}"`, "sse_replay_cap = 10000");
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

function waitExit(child: ChildProcess, ms: number): Promise<void> {
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

export async function startBenchServer(spec: ServerSpec): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), "ym-bench-"));
  const configFile = join(dir, "yardmaster.toml");
  writeFileSync(configFile, configToml(dir, spec));
  // BENCH_NODE_FLAGS: node/V8 flags for the server process only (experiments, e.g. JIT tiers).
  const flags = (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter(Boolean);
  const args = [...flags, "--import", "tsx", SERVER_SCRIPT, configFile];
  if (spec.synchronous) args.push(`--synchronous=${spec.synchronous}`);
  const env = { ...process.env };
  if (spec.profileFile) env.BENCH_PROFILE_FILE = spec.profileFile;
  if (spec.traceFile) env.BENCH_TRACE_FILE = spec.traceFile;
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["pipe", "pipe", "pipe"] });
  children.set(child, dir);
  let errText = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errText = (errText + chunk.toString("utf8")).slice(-4000);
    // BENCH_ECHO=1: the server's stderr on ours too (diagnostics it prints while measured).
    if (process.env.BENCH_ECHO) process.stderr.write(chunk);
  });
  let stopped: Promise<number> | null = null;
  const stop = (): Promise<number> => {
    stopped ??= (async () => {
      child.kill("SIGTERM");
      await waitExit(child, 20_000);
      children.delete(child);
      const bytes = storeBytes(dir);
      rmSync(dir, { recursive: true, force: true });
      return bytes;
    })();
    return stopped;
  };
  try {
    const ready = JSON.parse(await firstLine(child, () => errText, 60_000));
    return {
      url: ready.url,
      pid: ready.pid,
      synchronous: ready.synchronous,
      peakRssMib: () => readStatus(child.pid!, "VmHWM"),
      cpuMs: () => cpuMs(child.pid!),
      mainThreadCpuMs: () => cpuMs(child.pid!, `/proc/${child.pid}/task/${child.pid}/stat`),
      mainThreadWaitMs: () => runQueueWaitMs(`/proc/${child.pid}/task/${child.pid}/schedstat`),
      diskBytes: () => diskBytes(child.pid!),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
