// What PostgreSQL allows W1 on this machine (issue 22): W1's driver (2,000 chain runs, 64 submits
// in flight, ends seen on the event stream, cold: a fresh server each time) against, interleaved
// on the one throwaway cluster of BENCH_STORE=postgres (durability on):
//   yardmaster     the real server on a fresh schema (bench/run.ts's W1 session);
//   floor          bench/floor/ on PostgreSQL (pg-floor-store.ts): one statement per turn of the
//                  event loop (group commit), Yardmaster's indexes on runs, tasks and events;
//   floor-bare     the same with the SQLite floor's two indexes only;
//   floor-step     the same as `floor`, one transaction per operation (a submit, a step's end);
//   floor-2        the same as `floor`, two commits in flight (pg's pipeline mode): the next
//                  turn is built and sent while one commits;
//   graphile       graphile-worker through bench/peers (`--peer`; needs bench/peers installed);
//   commits        no engine: one connection committing one-row INSERTs back to back (its
//                  "steps/s" are commits/s; the client's CPU is the driver's).
// Per row: W1 steps/s, the server's (or worker's), the cluster's and the driver's CPU per step,
// the cluster's commits and WAL flushes per step, and the load average and busy share before it
// (BENCH_QUIET=0.5 BENCH_QUIET_WAIT_S=60: wait up to a minute for others to leave a core free).
// FLOOR_PG_PROFILE=<dir>: a V8 CPU profile of each floor server (bench/profile-summary.ts). Writes bench/results/floor-pg.json (bench/targets.ts prints its last ratio).
//   node --import tsx bench/floor-pg.ts [repetitions] [--peer] [--only floor,floor-step,...]
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname } from "node:path";
import pg from "pg";
import { Completions, lastEnd, submitMany } from "./completions.ts";
import type { Figure } from "./figures.ts";
import { forkFloorServer } from "./floor/floor-fork.ts";
import { FLOOR_PG_FILE, type FloorPgResult, type FloorPgRow } from "./floor/pg-floor-result.ts";
import type { CommitStats } from "./floor/pg-floor-store.ts";
import { HttpClient } from "./http-client.ts";
import { readOptions } from "./options.ts";
import {
  freshPostgresUrl,
  postgresCpuMs,
  stopOnSignal,
  stopPostgresCluster,
} from "./postgres-bench.ts";
import { waitForQuiet } from "./quiet.ts";
import { measureWorkload } from "./run.ts";
import { cpuMs, killAllServers } from "./server-handle.ts";

const args = process.argv.slice(2);
const REPEAT = Number(args.find((a) => /^\d+$/.test(a)) ?? 3);
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const SYSTEMS = [
  "yardmaster",
  "floor",
  "floor-bare",
  "floor-step",
  "floor-2",
  "commits",
  "graphile",
] as const;
type System = (typeof SYSTEMS)[number];
const picked = (only?.split(",") ?? SYSTEMS.filter((s) => s !== "graphile")) as System[];
if (args.includes("--peer") && !picked.includes("graphile")) picked.push("graphile");
const options = { ...readOptions(["W1"]), warm: false };
const RUNS = options.w1.runs;
const STEPS = RUNS * 3;

type Row = Omit<FloorPgRow, "rep" | "system"> & { system: System };

type Measured = Pick<Row, "system" | "stepsPerS" | "serverMs" | "pgMs" | "driverMs"> & {
  stats?: CommitStats;
};

const usedMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** The cluster's committed transactions and WAL flushes so far (pg_stat_database, pg_stat_wal). */
async function counters() {
  const { url } = await freshPostgresUrl();
  const bare = new URL(url);
  bare.search = "";
  const client = new pg.Client({ connectionString: bare.toString() });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT (SELECT sum(xact_commit) FROM pg_stat_database)::float8 AS commits,
              wal_sync::float8 AS syncs, wal_bytes::float8 AS bytes FROM pg_stat_wal`,
    );
    return rows[0] as { commits: number; syncs: number; bytes: number };
  } finally {
    await client.end();
  }
}

/** `system`'s row, with the cluster's counters per step around it: a backend reports its
 * statistics when it exits, so the second reading waits a moment after the session closed. */
async function measured(system: System): Promise<Row> {
  const busy = await waitForQuiet(options.quietShare, options.quietWaitMs);
  const load = loadavg()[0];
  const before = await counters();
  const row = await measure(system);
  await new Promise((r) => setTimeout(r, 1500));
  const after = await counters();
  const per = (k: "commits" | "syncs" | "bytes") => (after[k] - before[k]) / STEPS;
  const { stats, ...figures } = row;
  const commit = stats?.commits
    ? {
        buildMs: stats.buildMs / stats.commits,
        commitMs: stats.commitMs / stats.commits,
        eventsPerCommit: stats.events / stats.commits,
      }
    : {};
  return {
    ...figures,
    ...commit,
    load,
    busy,
    commits: per("commits"),
    walSyncs: per("syncs"),
    walBytes: per("bytes"),
  };
}

async function floor(system: System): Promise<Measured> {
  const { url } = await freshPostgresUrl();
  const target =
    system === "floor-bare"
      ? `${url}&floor_indexes=bare`
      : system === "floor-2"
        ? `${url}&floor_pipeline=1`
        : url;
  const batch = system === "floor-step" ? "1" : "Infinity";
  const depth = system === "floor-2" ? "2" : "1";
  const capacity = String(options.w1.capacity);
  const { child, port } = await forkFloorServer([target, capacity, batch, depth]);
  try {
    const base = `http://127.0.0.1:${port}`;
    const client = new HttpClient(base, { timeoutMs: 120_000 });
    const ends = await Completions.open(base);
    const cpu0 = cpuMs(child.pid!);
    const pg0 = postgresCpuMs();
    const driver0 = process.cpuUsage();
    const sent = await submitMany(client, "chain3", RUNS, options.inFlight, () => "chain");
    const ids = [...sent.sentAt.keys()];
    await ends.waitFor(ids, options.timeoutMs);
    const wallMs = lastEnd(ends, ids) - sent.firstSentAt;
    const row = {
      system,
      stepsPerS: Math.round((STEPS * 1000) / wallMs),
      serverMs: (cpuMs(child.pid!) - cpu0) / STEPS,
      pgMs: (postgresCpuMs() - pg0) / STEPS,
      driverMs: usedMs(driver0) / STEPS,
      stats: await new Promise<CommitStats>((resolve) => {
        child.once("message", (m: { stats: CommitStats }) => resolve(m.stats));
        child.send("floor-pg-stats");
      }),
    };
    ends.close();
    client.close();
    if (process.env.FLOOR_PG_PROFILE) {
      child.send("floor-pg-exit");
      await new Promise((r) => child.once("exit", r));
    }
    return row;
  } finally {
    child.kill();
  }
}

function fromFigure(system: System, f: Figure): Measured {
  if (f.error || !f.steps_per_s) throw new Error(`${system}: ${f.error ?? "no figure"}`);
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  const share = (pct: unknown) => (n(pct) * n(f.wall_ms)) / 100 / STEPS;
  return {
    system,
    stepsPerS: n(f.steps_per_s),
    serverMs: share(f.server_cpu_pct),
    pgMs: share(f.store_cpu_pct),
    driverMs: share(f.driver_cpu_pct),
  };
}

async function yardmaster(): Promise<Measured> {
  process.env.BENCH_STORE = "postgres";
  try {
    const rows = await measureWorkload("W1", options);
    return fromFigure("yardmaster", rows.find((r) => r.workload === "W1")!);
  } finally {
    delete process.env.BENCH_STORE;
    killAllServers();
  }
}

// Not a static import: bench/peers is its own package, installed on demand.
async function graphile(): Promise<Measured> {
  const measure = "./peers/measure.ts";
  const { measurePeer } = (await import(measure)) as {
    measurePeer(peer: string, workload: string, o: typeof options): Promise<Figure>;
  };
  const drivers = "./peers/drivers.ts";
  try {
    return fromFigure("graphile", await measurePeer("graphile", "W1", options));
  } finally {
    ((await import(drivers)) as { killAllWorkers(): void }).killAllWorkers();
  }
}

/**
 * The least a durable step waits for here: one connection committing a one-row INSERT after
 * another (autocommit, `synchronous_commit=on`), as many commits as W1 has steps; its "steps/s"
 * is commits/s, and a W1 engine on 8 slots that commits each step before the next starts can do
 * at most 8 steps a commit.
 */
async function commitLoop(): Promise<Measured> {
  const { url, schema } = await freshPostgresUrl();
  const bare = new URL(url);
  bare.search = "";
  const client = new pg.Client({ connectionString: bare.toString() });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (id bigint PRIMARY KEY)`);
    const pg0 = postgresCpuMs();
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    for (let i = 1; i <= STEPS; i++) {
      await client.query({ name: "c", text: `INSERT INTO ${schema}.t VALUES ($1)`, values: [i] });
    }
    const wallMs = performance.now() - start;
    return {
      system: "commits",
      stepsPerS: Math.round((STEPS * 1000) / wallMs),
      serverMs: 0,
      driverMs: usedMs(cpu0) / STEPS,
      pgMs: (postgresCpuMs() - pg0) / STEPS,
      stats: { commits: STEPS, buildMs: 0, commitMs: wallMs, events: 0 },
    };
  } finally {
    await client.end();
  }
}

const measure = (system: System) =>
  system === "yardmaster"
    ? yardmaster()
    : system === "graphile"
      ? graphile()
      : system === "commits"
        ? commitLoop()
        : floor(system);

const fixed = (ms: number) => ms.toFixed(3);
const show = (r: Row) =>
  console.log(
    `${r.system.padEnd(11)} ${String(r.stepsPerS).padStart(6)} steps/s  CPU ms/step: server ${fixed(r.serverMs)}` +
      `  PostgreSQL ${fixed(r.pgMs)}  together ${fixed(r.serverMs + r.pgMs)}  driver ${fixed(r.driverMs)}` +
      `  per step: ${r.commits.toFixed(2)} commits, ${r.walSyncs.toFixed(2)} WAL flushes,` +
      ` ${Math.round(r.walBytes)} WAL bytes` +
      (r.commitMs === undefined
        ? ""
        : `; a commit: ${r.buildMs?.toFixed(2)} ms to build, ${r.commitMs.toFixed(2)} ms to answer, ${r.eventsPerCommit?.toFixed(1)} events`) +
      `  (load ${r.load.toFixed(2)}, busy ${Math.round(r.busy * 100)}%)`,
  );

stopOnSignal(killAllServers);

const rows: Array<Row & { rep: number }> = [];
try {
  for (let rep = 1; rep <= REPEAT; rep++) {
    console.log(`repetition ${rep}`);
    for (const system of picked) {
      try {
        const row = { ...(await measured(system)), rep };
        rows.push(row);
        show(row);
      } catch (err) {
        console.log(`${system.padEnd(11)} failed: ${String((err as Error)?.message ?? err)}`);
      }
    }
  }
} finally {
  await stopPostgresCluster();
}

// Floor over Yardmaster and over the peer, steps/s, per repetition.
const ratio = (rep: number, a: System, b: System) => {
  const x = rows.find((r) => r.rep === rep && r.system === a);
  const y = rows.find((r) => r.rep === rep && r.system === b);
  return x && y ? Number((x.stepsPerS / y.stepsPerS).toFixed(2)) : null;
};
const reps = [...new Set(rows.map((r) => r.rep))];
const result: FloorPgResult = {
  at: new Date().toISOString(),
  runs: RUNS,
  rows: rows.map((r) => ({
    ...r,
    serverMs: Number(fixed(r.serverMs)),
    pgMs: Number(fixed(r.pgMs)),
  })),
  floorOverYardmaster: reps.map((rep) => ratio(rep, "floor", "yardmaster")),
  floorOverGraphile: reps.map((rep) => ratio(rep, "floor", "graphile")),
};
console.log(
  `floor / yardmaster steps/s: ${result.floorOverYardmaster.join(", ")}; floor / graphile-worker: ${result.floorOverGraphile.join(", ")}`,
);
mkdirSync(dirname(FLOOR_PG_FILE), { recursive: true });
writeFileSync(FLOOR_PG_FILE, `${JSON.stringify(result, null, 2)}\n`);
