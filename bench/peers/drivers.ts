// The peers' side of the driver: for one peer and one workload, a fresh store (a new database
// of the bench's PostgreSQL cluster, or a new Redis), the peer's workers in their own process
// (bench/peers/worker.ts), a producer using the peer's own client, and the runs' ends as the
// peer itself reports them:
//   dbos      DBOSClient.enqueue on a queue; ends from the workflow handles (DBOSClient.waitFirst)
//   graphile  WorkerUtils.addJob; ends from the worker's `job:success` of each run's last job
//   pgboss    PgBoss.send; ends from a NOTIFY the last job sends in the transaction that
//             completes it (so delivered when that completion commits)
//   bullmq    Queue.add; ends from QueueEvents `completed` of each run's last job
// Every wait is bounded; `close` ends the worker process and the store.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RunEnds } from "../completions.ts";
import { startCpuProfile } from "../cpu-profiler.ts";
import { freshPostgresUrl, postgresCpuMs } from "../postgres-bench.ts";
import { cpuMs, threadsCpuMs, waitExit } from "../server-handle.ts";
import { firstStep, type Peer, type WorkerSpec, type Workflow } from "./protocol.ts";
import { startRedis } from "./redis.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const WORKER = join(import.meta.dirname, "worker.ts");

export interface PeerSession {
  peer: Peer;
  /** The worker process's CPU time so far (ms), and its peak RSS (MiB). */
  cpuMs(): number;
  /** The worker process's CPU time so far by thread name. */
  threadsCpuMs(): Map<string, number>;
  peakRssMib(): number;
  /** CPU time of the peer's store so far (the PostgreSQL cluster, or redis-server), ms. */
  storeCpuMs(): number;
  /** Peak RSS of the store process (Redis), or null (PostgreSQL: shared with others). */
  storeRssMib(): number | null;
  /** Enqueues run `run` of `workflow` through the peer's own client. */
  submit(run: string): Promise<void>;
  /** run -> when its end reached the driver (performance.now). */
  ended: Map<string, number>;
  waitFor(ids: Iterable<string>, ms: number): Promise<void>;
  close(): Promise<void>;
}

export interface SessionSpec {
  peer: Peer;
  workflow: Workflow;
  capacity: number;
  width: number;
  sleepMs: number;
}

/** Worker processes still running, ended on any exit path of the driver. */
const workers = new Set<ChildProcess>();
export function killAllWorkers(): void {
  for (const child of workers) child.kill("SIGKILL");
  workers.clear();
}

function readStatusMib(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
  return kib ? Number(kib) / 1024 : Number.NaN;
}

interface Worker {
  pid: number;
  stop(): Promise<void>;
}

/** Starts the worker process; `onLine` gets every JSON line it prints after `ready`. */
async function startWorker(spec: WorkerSpec, onLine: (line: { end?: string }) => void) {
  const child = spawn(process.execPath, ["--import", "tsx", WORKER, JSON.stringify(spec)], {
    cwd: ROOT,
    stdio: ["pipe", "pipe", "pipe"],
  });
  workers.add(child);
  let errText = "";
  child.stderr!.on("data", (chunk: Buffer) => {
    errText = (errText + chunk.toString("utf8")).slice(-4000);
    if (process.env.BENCH_ECHO) process.stderr.write(chunk);
  });
  const stop = async () => {
    child.stdin!.end();
    await waitExit(child, 15_000);
    workers.delete(child);
  };
  const ready = new Promise<void>((resolve, reject) => {
    let buffer = "";
    let isReady = false;
    const timer = setTimeout(
      () => reject(new Error(`worker not ready in 60 s\n${errText}`)),
      60_000,
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (line.ready) {
          isReady = true;
          clearTimeout(timer);
          resolve();
        } else if (isReady) onLine(line);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}\n${errText}`));
    });
  });
  try {
    await ready;
  } catch (err) {
    await stop();
    throw err;
  }
  return { pid: child.pid!, stop } satisfies Worker;
}

let databases = 0;

/** A fresh database on the bench's PostgreSQL cluster (started on first use). */
async function freshDatabase(peer: Peer): Promise<string> {
  const pg = (await import("pg")).default;
  const base = new URL((await freshPostgresUrl()).url);
  base.search = "";
  databases += 1;
  const name = `peer_${peer}_${process.pid}_${databases}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  base.pathname = `/${name}`;
  if (process.env.BENCH_ECHO) process.stderr.write(`peers: database ${base}\n`);
  return base.toString();
}

interface Producer {
  submit(run: string): Promise<void>;
  close(): Promise<void>;
}

async function dbosProducer(url: string, s: SessionSpec, ends: RunEnds): Promise<Producer> {
  const { DBOSClient } = await import("@dbos-inc/dbos-sdk");
  const client = await DBOSClient.create({ systemDatabaseUrl: url });
  type Handle = Awaited<ReturnType<typeof client.enqueue>>;
  const pending = new Map<string, Handle>();
  let closed = false;
  let wake: (() => void) | null = null;
  // One watcher over every unfinished handle: DBOS answers the first that has finished (one
  // query over all of them per poll), and again at once while more have.
  const watch = (async () => {
    while (!closed) {
      if (pending.size === 0) {
        await new Promise<void>((r) => {
          wake = r;
        });
        continue;
      }
      const done = await client.waitFirst([...pending.values()], { pollingIntervalMs: 10 });
      pending.delete(done.workflowID);
      ends.record(done.workflowID, performance.now());
    }
  })().catch((err) => {
    if (!closed) process.stderr.write(`dbos watcher: ${String(err)}\n`);
  });
  return {
    async submit(run) {
      const handle = await client.enqueue(
        { queueName: "bench", workflowName: s.workflow, workflowID: run },
        run,
      );
      pending.set(run, handle);
      wake?.();
      wake = null;
    },
    async close() {
      closed = true;
      wake?.();
      await client.destroy();
      await Promise.race([watch, new Promise((r) => setTimeout(r, 2000))]);
    },
  };
}

async function graphileProducer(url: string, s: SessionSpec): Promise<Producer> {
  const { makeWorkerUtils } = await import("graphile-worker");
  const utils = await makeWorkerUtils({ connectionString: url });
  const step = firstStep(s.workflow);
  return {
    async submit(run) {
      await utils.addJob("step", { run, step });
    },
    async close() {
      await utils.release();
    },
  };
}

async function pgbossProducer(url: string, s: SessionSpec, ends: RunEnds): Promise<Producer> {
  const { PgBoss } = await import("pg-boss");
  const pg = (await import("pg")).default;
  const listener = new pg.Client({ connectionString: url });
  listener.on("error", (err) => process.stderr.write(`pg-boss end listener: ${String(err)}\n`));
  await listener.connect();
  listener.on("notification", (n) => {
    if (n.channel === "peer_end" && n.payload) ends.record(n.payload, performance.now());
  });
  await listener.query("LISTEN peer_end");
  // A producer only: no maintenance, scheduling or migration of its own (the worker did those).
  const boss = new PgBoss({
    connectionString: url,
    supervise: false,
    schedule: false,
    migrate: false,
  });
  boss.on("error", (err) => process.stderr.write(`pg-boss producer: ${String(err)}\n`));
  await boss.start();
  const step = firstStep(s.workflow);
  return {
    async submit(run) {
      await boss.send("steps", { run, step });
    },
    async close() {
      await boss.stop({ graceful: false, timeout: 2000 });
      await listener.end();
    },
  };
}

async function bullmqProducer(port: number, s: SessionSpec, ends: RunEnds): Promise<Producer> {
  const { Queue, QueueEvents } = await import("bullmq");
  const connection = { host: "127.0.0.1", port };
  const queue = new Queue("steps", { connection });
  const events = new QueueEvents("steps", { connection });
  const last = s.workflow === "chain3" ? "-c" : s.workflow === "fan" ? "-gather" : "-nap";
  events.on("completed", ({ jobId }) => {
    if (jobId.endsWith(last)) ends.record(jobId.slice(0, -last.length), performance.now());
  });
  await events.waitUntilReady();
  await queue.waitUntilReady();
  const step = firstStep(s.workflow);
  return {
    async submit(run) {
      await queue.add(step, { run, step }, { jobId: `${run}-${step}` });
    },
    async close() {
      await events.close();
      await queue.close();
    },
  };
}

/**
 * PEERS_PROFILE=1 (bench/results/profiles/) or a folder: per session, a CPU profile of the
 * worker process (`peer-<peer>-<workflow>-worker.cpuprofile`, from ready to stop), one of this
 * driver process while the session is open (`-producer`: the peer's client enqueueing and
 * hearing run ends, besides the driver's own bookkeeping), and for BullMQ Redis's
 * `INFO commandstats` and `INFO cpu` before it stops (`-redis.txt`).
 */
function profileBase(s: SessionSpec): string | null {
  const raw = process.env.PEERS_PROFILE;
  if (!raw) return null;
  const dir = raw === "1" ? join(ROOT, "bench", "results", "profiles") : raw;
  mkdirSync(dir, { recursive: true });
  return join(dir, `peer-${s.peer}-${s.workflow}`);
}

function redisStats(port: number, file: string): void {
  const info = (section: string) =>
    execFileSync("redis-cli", ["-p", String(port), "INFO", section], { encoding: "utf8" });
  writeFileSync(file, `${info("cpu")}\n${info("commandstats")}`);
}

/** DBOS: shortest queue polling interval (its default is 1,000 ms). */
const DBOS_POLL_MS = Number(process.env.PEERS_DBOS_POLL_MS ?? 20);

export async function openPeer(s: SessionSpec): Promise<PeerSession> {
  const ends = new RunEnds();
  const redis = s.peer === "bullmq" ? await startRedis() : null;
  const stack: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const step of stack.reverse()) await step().catch(() => {});
    stack.length = 0;
  };
  if (redis) stack.push(redis.stop);
  const profile = profileBase(s);
  try {
    const url = redis ? undefined : await freshDatabase(s.peer);
    const spec: WorkerSpec = {
      peer: s.peer,
      url,
      redisPort: redis?.port,
      capacity: s.capacity,
      width: s.width,
      sleepMs: s.sleepMs,
      dbosPollMs: DBOS_POLL_MS,
      ...(profile ? { profileFile: `${profile}-worker.cpuprofile` } : {}),
    };
    const worker = await startWorker(spec, (line) => {
      if (line.end) ends.record(line.end, performance.now());
    });
    stack.push(worker.stop);
    if (profile && redis) {
      const port = redis.port;
      stack.push(async () => redisStats(port, `${profile}-redis.txt`));
    }
    if (profile) stack.push(await startCpuProfile(`${profile}-producer.cpuprofile`));
    const producer =
      s.peer === "dbos"
        ? await dbosProducer(url!, s, ends)
        : s.peer === "graphile"
          ? await graphileProducer(url!, s)
          : s.peer === "pgboss"
            ? await pgbossProducer(url!, s, ends)
            : await bullmqProducer(redis!.port, s, ends);
    stack.push(producer.close);
    return {
      peer: s.peer,
      cpuMs: () => cpuMs(worker.pid),
      threadsCpuMs: () => threadsCpuMs(worker.pid),
      peakRssMib: () => readStatusMib(worker.pid, "VmHWM"),
      storeCpuMs: () => (redis ? cpuMs(redis.pid) : postgresCpuMs()),
      storeRssMib: () => (redis ? readStatusMib(redis.pid, "VmHWM") : null),
      submit: producer.submit,
      ended: ends.ended,
      waitFor: (ids, ms) => ends.waitFor(ids, ms),
      close,
    };
  } catch (err) {
    await close();
    throw err;
  }
}
