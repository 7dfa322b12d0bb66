// BENCH_STORE=postgres: the measured servers serve from a throwaway PostgreSQL cluster
// (test/support/postgres-cluster.ts), started once per bench process, each session on a fresh
// schema. The test cluster runs without durability (fsync off); the bench turns it back on
// (fsync, full_page_writes, synchronous_commit: what a production server acknowledges on), so
// its figures include the WAL flush of every commit. Also the cluster's CPU time (postmaster,
// its live backends and the ones that already exited), for the server CPU per step.
import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import {
  findPostgresBin,
  type PostgresCluster,
  startPostgresCluster,
} from "../test/support/postgres-cluster.ts";

export type BenchStore = "sqlite" | "postgres";

/** BENCH_STORE: `sqlite` (default) or `postgres`. */
export function benchStore(): BenchStore {
  const raw = (process.env.BENCH_STORE ?? "sqlite").toLowerCase();
  if (raw === "sqlite") return "sqlite";
  if (raw === "postgres" || raw === "pg" || raw === "postgresql") return "postgres";
  throw new Error(`BENCH_STORE must be sqlite or postgres, not ${raw}`);
}

let cluster: Promise<{ cluster: PostgresCluster; postmaster: number }> | null = null;
let postmasterPid: number | null = null;
let schemas = 0;

async function startCluster() {
  const bin = await findPostgresBin();
  if (!bin) throw new Error("BENCH_STORE=postgres: no PostgreSQL installation found");
  const started = await startPostgresCluster(bin);
  const client = new pg.Client({ connectionString: started.url });
  await client.connect();
  try {
    for (const setting of ["fsync", "full_page_writes", "synchronous_commit"]) {
      await client.query(`ALTER SYSTEM SET ${setting} = on`);
    }
    await client.query("SELECT pg_reload_conf()");
    const { rows } = await client.query("SELECT pg_backend_pid() AS pid");
    postmasterPid = parentOf(rows[0].pid);
    return { cluster: started, postmaster: postmasterPid };
  } finally {
    await client.end();
  }
}

function cluster_() {
  cluster ??= startCluster();
  return cluster;
}

/** A store URL on a fresh schema of the bench cluster (started on first use). */
export async function freshPostgresUrl(): Promise<{ url: string; schema: string }> {
  const { cluster: c } = await cluster_();
  schemas += 1;
  const schema = `bench_${process.pid}_${schemas}`;
  return { url: `${c.url}?schema=${schema}`, schema };
}

/** Bytes of a schema's tables and indexes. */
export async function schemaBytes(schema: string): Promise<number> {
  const { cluster: c } = await cluster_();
  const client = new pg.Client({ connectionString: c.url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS bytes
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
      [schema],
    );
    return Number(rows[0].bytes);
  } finally {
    await client.end();
  }
}

function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

function parentOf(pid: number): number {
  return Number(statFields(pid)[1]);
}

/**
 * CPU time (ms) the cluster has used: the postmaster's own and that of its exited children
 * (cutime, cstime), plus every live child's (backends, WAL writer, checkpointer). 0 when no
 * cluster runs (SQLite).
 */
export function postgresCpuMs(): number {
  const postmaster = postmasterPid;
  if (postmaster === null) return 0;
  const f = statFields(postmaster);
  let ticks = Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const c = statFields(Number(entry));
      if (Number(c[1]) === postmaster) ticks += Number(c[11]) + Number(c[12]);
    } catch {}
  }
  return ticks * 10;
}

/** Stops the cluster, if one was started (end of the bench). */
export async function stopPostgresCluster(): Promise<void> {
  if (!cluster) return;
  const started = cluster;
  cluster = null;
  postmasterPid = null;
  await (await started).cluster.stop();
}

/** On SIGINT or SIGTERM: `cleanUp` (the driver's children), the cluster stopped, exit 130. */
export function stopOnSignal(cleanUp: () => void): void {
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      cleanUp();
      stopPostgresCluster().finally(() => process.exit(130));
    });
  }
}

/**
 * Runs a driver's `main` to its exit code; `cleanUp` runs on a signal, at exit, and when `main`
 * throws (then the cluster is stopped too and the exit code is 1).
 */
export function runDriver(name: string, main: () => Promise<number>, cleanUp: () => void): void {
  stopOnSignal(cleanUp);
  process.on("exit", cleanUp);
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (err) => {
      process.stderr.write(`${name}: ${String((err as Error)?.stack ?? err)}\n`);
      cleanUp();
      stopPostgresCluster().catch(() => {});
      process.exitCode = 1;
    },
  );
}
