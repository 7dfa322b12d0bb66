// The peers in our own bench (issues 22 and 26):
//   node --import tsx bench/peers/run.ts [W1 W2 W3 W4] [--only dbos,graphile,pgboss,bullmq]
// Workload by workload, Yardmaster (SQLite, then the PostgreSQL store: bench/run.ts's own
// sessions) and then each peer (bench/peers/measure.ts) run one after another, so that all of a
// workload's figures come from the same minutes. Prints one table and the ratios the issues
// name, writes bench/results/peers.json (PEERS_OUT). Cold rounds only (BENCH_WARM is ignored:
// the peers have no warm round). A peer that cannot be installed, started or measured gets a
// row saying why, and the run goes on. PEERS_YARDMASTER=sqlite,postgres (default both; `none`)
// picks Yardmaster's stores. Sizes are `npm run bench`'s (BENCH_W1_RUNS, BENCH_QUICK ...).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { BLANK, type Figure, round } from "../figures.ts";
import { type BenchOptions, readOptions } from "../options.ts";
import { runDriver, stopPostgresCluster } from "../postgres-bench.ts";
import { machine, measureWorkload, revision } from "../run.ts";
import { killAllServers } from "../server-handle.ts";
import { killAllWorkers } from "./drivers.ts";
import { measurePeer, type PeerWorkload } from "./measure.ts";
import { PEERS, type Peer } from "./protocol.ts";
import { type PeerRow, peerRatios, peersTable, ratioLines, type System } from "./ratios.ts";
import { killAllRedis, redisFsync, redisVersion } from "./redis.ts";
import { peerVersions } from "./versions.ts";

const WORKLOADS: readonly PeerWorkload[] = ["W1", "W2", "W3", "W4"];
const OUT = process.env.PEERS_OUT || join(import.meta.dirname, "..", "results", "peers.json");

function parseArgs(argv: string[]) {
  const workloads: PeerWorkload[] = [];
  let peers: Peer[] = [...PEERS];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--only" || arg.startsWith("--only=")) {
      const list = arg === "--only" ? (argv[++i] ?? "") : arg.slice("--only=".length);
      const picked = list.split(",").filter(Boolean) as Peer[];
      const unknown = picked.filter((p) => !PEERS.includes(p));
      if (unknown.length)
        throw new Error(`unknown peer ${unknown.join(", ")}; choose from ${PEERS.join(", ")}`);
      peers = picked;
      continue;
    }
    const w = arg.toUpperCase() as PeerWorkload;
    if (!WORKLOADS.includes(w))
      throw new Error(`unknown workload ${arg}; choose from ${WORKLOADS.join(", ")}`);
    workloads.push(w);
  }
  return { workloads: workloads.length ? workloads : [...WORKLOADS], peers };
}

function yardmasterStores(): System[] {
  const raw = process.env.PEERS_YARDMASTER ?? "sqlite,postgres";
  if (raw === "none") return [];
  return raw.split(",").filter((s): s is System => s === "sqlite" || s === "postgres");
}

/** Yardmaster's cold row of `workload`, served from `store`. */
async function measureYardmaster(store: System, workload: PeerWorkload, o: BenchOptions) {
  const before = process.env.BENCH_STORE;
  process.env.BENCH_STORE = store;
  try {
    const rows = await measureWorkload(workload, o);
    return rows.find((r) => r.workload === workload)!;
  } finally {
    if (before === undefined) delete process.env.BENCH_STORE;
    else process.env.BENCH_STORE = before;
    killAllServers();
  }
}

function failedRow(workload: string, err: unknown): Figure {
  const message = String((err as Error)?.message ?? err).split("\n")[0];
  return { workload, ...BLANK, error: message, note: `not measured: ${message.slice(0, 80)}` };
}

const NOTES: Record<System, () => string> = {
  sqlite: () => "synchronous=NORMAL (WAL)",
  postgres: () => "synchronous_commit=on",
  dbos: () => "synchronous_commit=on",
  graphile: () => "synchronous_commit=on",
  pgboss: () => "synchronous_commit=on",
  bullmq: () =>
    `AOF appendfsync ${redisFsync()}${redisFsync() === "always" ? "" : " (not durable)"}`,
};

async function main(): Promise<number> {
  const { workloads, peers } = parseArgs(process.argv.slice(2));
  const options: BenchOptions = { ...readOptions(workloads), warm: false };
  const versions = peerVersions();
  const redis = redisVersion();
  const skip = new Map<Peer, string>();
  for (const peer of peers) {
    if (!versions[peer]) skip.set(peer, "not installed (npm run bench:peers:install)");
  }
  if (!redis && peers.includes("bullmq"))
    skip.set("bullmq", "no redis-server (apt-get install redis-server)");
  const systems: System[] = [...yardmasterStores(), ...peers];
  const rows: PeerRow[] = [];
  let errors = 0;
  for (const workload of workloads) {
    for (const system of systems) {
      const title = `${workload} ${system}`;
      const skipped = skip.get(system as Peer);
      let row: Figure;
      if (skipped) {
        row = { workload, ...BLANK, note: `not measured: ${skipped}` };
      } else {
        process.stderr.write(`peers: ${title}...\n`);
        try {
          row =
            system === "sqlite" || system === "postgres"
              ? await measureYardmaster(system, workload, options)
              : await measurePeer(system, workload, options);
          row = { ...row, note: NOTES[system]() };
        } catch (err) {
          errors += 1;
          process.stderr.write(`peers: ${title} failed: ${String((err as Error)?.stack ?? err)}\n`);
          row = failedRow(workload, err);
        } finally {
          killAllWorkers();
          killAllRedis();
        }
      }
      const tagged: PeerRow = { ...row, system };
      rows.push(tagged);
      console.log(JSON.stringify(tagged));
    }
  }
  const ratios = peerRatios(rows);
  console.log(`\n${peersTable(rows)}`);
  console.log(`\nRatios (printed, never asserted):\n  ${ratioLines(ratios).join("\n  ")}`);
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    revision: revision(),
    load_average: (await import("node:os")).loadavg().map((v) => round(v)),
    options,
    versions: { ...versions, "redis-server": redis },
    redis_appendfsync: redisFsync(),
    rows,
    ratios,
  };
  await stopPostgresCluster();
  mkdirSync(dirname(OUT), { recursive: true });
  writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  process.stderr.write(`peers: wrote ${OUT}${existsSync(OUT) ? "" : " (failed)"}\n`);
  return errors ? 1 : 0;
}

const cleanUp = () => {
  killAllServers();
  killAllWorkers();
  killAllRedis();
};
runDriver("peers", main, cleanUp);
