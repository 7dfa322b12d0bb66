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
// `W4` instead: W4's driver (400 one-nap runs, 64 slots) and W4-fan's (one run fanning out 400
// naps), each form's systems one after another (default yardmaster, floor, floor-2; `W4-fan`
// alone: that form only); each row also has the wall, its ratio to the whole-wave ideal and, for
// a floor, the hand-off lateness by wave. Writes bench/results/floor-pg-w4.json.
//   node --import tsx bench/floor-pg.ts [W1|W4|W4-fan] [repetitions] [--peer] [--only=floor,floor-step,...]
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname } from "node:path";
import pg from "pg";
import { Completions } from "./completions.ts";
import type { Figure } from "./figures.ts";
import { forkFloorServer } from "./floor/floor-fork.ts";
import {
  driveRound,
  type FloorRound,
  type FloorWorkload,
  floorWorkloadNamed,
  floorWorkloads,
  showWaves,
} from "./floor/floor-rounds.ts";
import {
  FLOOR_PG_FILE,
  FLOOR_PG_W4_FILE,
  type FloorPgResult,
  type FloorPgRow,
  floorPgW4Line,
} from "./floor/pg-floor-result.ts";
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
import { withSession } from "./session.ts";

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
const options = { ...readOptions(["W1"]), warm: false };
const named = args.map(floorWorkloadNamed).find((n) => n !== undefined) ?? "W1";
const known = floorWorkloads(options);
// W4: both its forms, each with its own rows; W1's systems that make no sense for it are refused.
const FORMS = named === "W4" ? [known.W4, known["W4-fan"]] : [known[named]];
const W4_SYSTEMS: System[] = ["yardmaster", "floor", "floor-2"];
const picked = (only?.split(",") ??
  (named === "W1" ? SYSTEMS.filter((s) => s !== "graphile") : W4_SYSTEMS)) as System[];
if (args.includes("--peer") && !picked.includes("graphile")) picked.push("graphile");
if (named !== "W1" && picked.some((s) => s === "commits" || s === "graphile"))
  throw new Error("commits and graphile run W1 only");
if (named === "W3") throw new Error("the PostgreSQL floor has no arrivals: W1 and W4 only");
const RUNS = options.w1.runs;

type Row = Omit<FloorPgRow, "rep" | "system"> & { system: System };

type Measured = Pick<Row, "system" | "stepsPerS" | "serverMs" | "pgMs" | "driverMs"> &
  Pick<Row, "wallMs" | "ratio" | "waves"> & { stats?: CommitStats };

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
async function measured(system: System, w: FloorWorkload): Promise<Row> {
  const busy = await waitForQuiet(options.quietShare, options.quietWaitMs);
  const load = loadavg()[0];
  const before = await counters();
  const row = await measure(system, w);
  await new Promise((r) => setTimeout(r, 1500));
  const after = await counters();
  const per = (k: "commits" | "syncs" | "bytes") => (after[k] - before[k]) / (w.runs * w.steps);
  const { stats, ...figures } = row;
  const commit = stats?.commits
    ? {
        buildMs: stats.buildMs / stats.commits,
        commitMs: stats.commitMs / stats.commits,
        eventsPerCommit: stats.events / stats.commits,
      }
    : {};
  return {
    ...(w.name === "W1" ? {} : { workload: w.name }),
    ...figures,
    ...commit,
    load,
    busy,
    commits: per("commits"),
    walSyncs: per("syncs"),
    walBytes: per("bytes"),
  };
}

async function floor(system: System, w: FloorWorkload): Promise<Measured> {
  const { url } = await freshPostgresUrl();
  const target =
    system === "floor-bare"
      ? `${url}&floor_indexes=bare`
      : system === "floor-2"
        ? `${url}&floor_pipeline=1`
        : url;
  const batch = system === "floor-step" ? "1" : "Infinity";
  const depth = system === "floor-2" ? "2" : "1";
  const { child, port } = await forkFloorServer([target, String(w.capacity), batch, depth]);
  try {
    const base = `http://127.0.0.1:${port}`;
    const client = new HttpClient(base, { timeoutMs: 120_000 });
    const ends = await Completions.open(base);
    const driver0 = process.cpuUsage();
    const cpu = () => cpuMs(child.pid!);
    const round = await driveRound(w, options, {
      ...{ client, ends, cpu, storeCpu: postgresCpuMs, floor: child },
    });
    const row = {
      ...fromRound(system, w, round),
      driverMs: usedMs(driver0) / (w.runs * w.steps),
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

function fromRound(system: System, w: FloorWorkload, r: FloorRound): Measured {
  const wave = w.idealMs === null ? {} : { wallMs: r.wallMs, ratio: r.ratio ?? 0, waves: r.waves };
  return {
    system,
    stepsPerS: r.stepsPerS,
    serverMs: r.serverMs,
    pgMs: r.storeMs,
    driverMs: 0,
    ...wave,
  };
}

function fromFigure(system: System, f: Figure): Measured {
  if (f.error || !f.steps_per_s) throw new Error(`${system}: ${f.error ?? "no figure"}`);
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  const share = (pct: unknown) => (n(pct) * n(f.wall_ms)) / 100 / (RUNS * 3);
  return {
    system,
    stepsPerS: n(f.steps_per_s),
    serverMs: share(f.server_cpu_pct),
    pgMs: share(f.store_cpu_pct),
    driverMs: share(f.driver_cpu_pct),
  };
}

// W1 as `npm run bench` measures it; W4's forms one at a time (`npm run bench`'s W4 runs both in
// one go), on a fresh server and schema each, driven as the floors are.
async function yardmaster(w: FloorWorkload): Promise<Measured> {
  process.env.BENCH_STORE = "postgres";
  try {
    if (w.name !== "W1") {
      const spec = { pools: { bench: w.capacity }, workflows: { [w.workflow]: "bench" } };
      const { value } = await withSession(spec, async (s) => {
        const driver0 = process.cpuUsage();
        const round = await driveRound(w, options, {
          ...{ client: s.client, ends: s.completions },
          ...{ cpu: () => s.server.cpuMs(), storeCpu: () => s.server.storeCpuMs() },
        });
        return { round, driverMs: usedMs(driver0) / (w.runs * w.steps) };
      });
      return { ...fromRound("yardmaster", w, value.round), driverMs: value.driverMs };
    }
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
    for (let i = 1; i <= RUNS * 3; i++) {
      await client.query({ name: "c", text: `INSERT INTO ${schema}.t VALUES ($1)`, values: [i] });
    }
    const wallMs = performance.now() - start;
    return {
      system: "commits",
      stepsPerS: Math.round((RUNS * 3 * 1000) / wallMs),
      serverMs: 0,
      driverMs: usedMs(cpu0) / (RUNS * 3),
      pgMs: (postgresCpuMs() - pg0) / (RUNS * 3),
      stats: { commits: RUNS * 3, buildMs: 0, commitMs: wallMs, events: 0 },
    };
  } finally {
    await client.end();
  }
}

const measure = (system: System, w: FloorWorkload) =>
  system === "yardmaster"
    ? yardmaster(w)
    : system === "graphile"
      ? graphile()
      : system === "commits"
        ? commitLoop()
        : floor(system, w);

const fixed = (ms: number) => ms.toFixed(3);
const show = (r: Row) =>
  console.log(
    (r.workload ? `${r.workload.padEnd(7)}` : "") +
      (r.ratio === undefined ? "" : `${r.wallMs} ms = ${r.ratio}x the ideal; `) +
      `${r.system.padEnd(11)} ${String(r.stepsPerS).padStart(6)} steps/s  CPU ms/step: server ${fixed(r.serverMs)}` +
      `  PostgreSQL ${fixed(r.pgMs)}  together ${fixed(r.serverMs + r.pgMs)}  driver ${fixed(r.driverMs)}` +
      `  per step: ${r.commits.toFixed(2)} commits, ${r.walSyncs.toFixed(2)} WAL flushes,` +
      ` ${Math.round(r.walBytes)} WAL bytes` +
      (r.commitMs === undefined
        ? ""
        : `; a commit: ${r.buildMs?.toFixed(2)} ms to build, ${r.commitMs.toFixed(2)} ms to answer, ${r.eventsPerCommit?.toFixed(1)} events`) +
      `  (load ${r.load.toFixed(2)}, busy ${Math.round(r.busy * 100)}%)` +
      (r.waves ? `\n        hand-off p50/max ms by wave: ${showWaves(r.waves)}` : ""),
  );

stopOnSignal(killAllServers);

const rows: Array<Row & { rep: number }> = [];
try {
  for (let rep = 1; rep <= REPEAT; rep++) {
    console.log(`repetition ${rep}`);
    for (const form of FORMS)
      for (const system of picked) {
        try {
          const row = { ...(await measured(system, form)), rep };
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
const w1 = named === "W1";
const result: FloorPgResult = {
  at: new Date().toISOString(),
  runs: w1 ? RUNS : FORMS[0].runs,
  rows: rows.map((r) => ({
    ...r,
    serverMs: Number(fixed(r.serverMs)),
    pgMs: Number(fixed(r.pgMs)),
  })),
  floorOverYardmaster: w1 ? reps.map((rep) => ratio(rep, "floor", "yardmaster")) : [],
  floorOverGraphile: w1 ? reps.map((rep) => ratio(rep, "floor", "graphile")) : [],
};
if (w1)
  console.log(
    `floor / yardmaster steps/s: ${result.floorOverYardmaster.join(", ")}; floor / graphile-worker: ${result.floorOverGraphile.join(", ")}`,
  );
else console.log(floorPgW4Line(undefined, result));
const file = w1 ? FLOOR_PG_FILE : FLOOR_PG_W4_FILE;
mkdirSync(dirname(file), { recursive: true });
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
