// `npm run bench [-- W1 W3 ...]`: runs the workloads of issue 8 against real servers (each in
// its own process, on a fresh SQLite file, driven only through the HTTP API and the event
// stream), prints one JSON line per workload and a table, and writes bench/results/latest.json.
// Figures are the median over BENCH_REPEAT repetitions. It never passes or fails on a figure;
// it exits 1 only when a workload could not be measured (an error or a timeout).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { BLANK, type Figure, medianFigure, round, table } from "./figures.ts";
import { type BenchOptions, readOptions, type WorkloadName } from "./options.ts";
import { runDriver, stopPostgresCluster } from "./postgres-bench.ts";
import { waitForQuiet } from "./quiet.ts";
import { killAllServers } from "./server-handle.ts";
import { targetLines } from "./targets.ts";
import { w1, w1b, w3, w4 } from "./workloads/batch.ts";
import { w2 } from "./workloads/latency.ts";
import { w5 } from "./workloads/read-side.ts";

type Measure = (options: BenchOptions, rep: number) => Promise<Figure | Figure[]>;

const MEASURES: Record<WorkloadName, Measure> = {
  W1: (o, r) => w1(o, r),
  W1B: w1b,
  W1F: (o, r) => w1(o, r, true),
  W2: w2,
  W3: w3,
  W4: w4,
  W5: w5,
};

// W5 seeds 10,000 runs before it measures; its percentiles already come from many samples, so
// it runs once whatever BENCH_REPEAT says.
const ONCE = new Set<WorkloadName>(["W5"]);

/** Which code was measured: the commit, and whether the working tree differed from it. */
export function revision() {
  const git = (...args: string[]) => {
    try {
      const stdio: ["ignore", "pipe", "ignore"] = ["ignore", "pipe", "ignore"];
      return execFileSync("git", args, {
        cwd: import.meta.dirname,
        encoding: "utf8",
        stdio,
      }).trim();
    } catch {
      return null;
    }
  };
  const changed = git("status", "--porcelain", "--", "src");
  const commit = git("rev-parse", "HEAD");
  if (commit) return { commit, src_modified: changed ? changed.split("\n") : [] };
  // A copy of the tree without .git (a frozen snapshot) may say what it is in REVISION.
  const file = join(import.meta.dirname, "..", "REVISION");
  return { snapshot: existsSync(file) ? readFileSync(file, "utf8").trim().split("\n") : null };
}

export function machine() {
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memory_gib: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** Every repetition's rows, kept in the JSON report next to the medians. */
const repetitions: Record<string, Figure[][]> = {};

/**
 * One workload's rows (the median of its repetitions), on a fresh server per repetition; also
 * what bench/peers/run.ts measures Yardmaster with, beside the peers.
 */
export async function measureWorkload(
  name: WorkloadName,
  options: BenchOptions,
): Promise<Figure[]> {
  const reps = ONCE.has(name) ? 1 : options.repeat;
  const runs: Figure[][] = [];
  for (let rep = 1; rep <= reps; rep++) {
    const busy = await waitForQuiet(options.quietShare, options.quietWaitMs);
    process.stderr.write(`bench: ${name} (${rep}/${reps})...\n`);
    const got = await MEASURES[name](options, rep);
    const rows = Array.isArray(got) ? got : [got];
    runs.push(rows.map((row) => ({ ...row, busy_before: round(busy) })));
  }
  // Each repetition answers the same rows in the same order; take each row's median.
  repetitions[name] = runs;
  return runs[0].map((_, row) => medianFigure(runs.map((r) => r[row])));
}

function failed(name: WorkloadName, err: unknown): Figure {
  process.stderr.write(`bench: ${name} failed: ${String((err as Error)?.stack ?? err)}\n`);
  return {
    workload: name,
    ...BLANK,
    error: String((err as Error)?.message ?? err),
    note: "FAILED",
  };
}

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  const figures: Figure[] = [];
  let errors = 0;
  for (const name of options.workloads) {
    try {
      const rows = await measureWorkload(name, options);
      figures.push(...rows);
      for (const row of rows) console.log(JSON.stringify(row));
    } catch (err) {
      errors += 1;
      figures.push(failed(name, err));
      console.log(JSON.stringify(figures.at(-1)));
    } finally {
      killAllServers();
    }
  }
  console.log(`\n${table(figures)}`);
  console.log(`\n${targetLines(figures).join("\n")}`);
  const report = {
    date: new Date().toISOString(),
    machine: machine(),
    revision: revision(),
    options,
    store: process.env.BENCH_STORE ?? "sqlite",
    servers: Number(process.env.BENCH_SERVERS ?? 1),
    figures,
    repetitions,
  };
  await stopPostgresCluster();
  mkdirSync(dirname(options.outFile), { recursive: true });
  writeFileSync(options.outFile, `${JSON.stringify(report, null, 2)}\n`);
  return errors ? 1 : 0;
}

/** Run as a script (`npm run bench`), not imported (bench/peers/run.ts imports it). */
function isMain(): boolean {
  try {
    return realpathSync(process.argv[1] ?? "") === import.meta.filename;
  } catch {
    return false;
  }
}

if (isMain()) runDriver("bench", main, killAllServers);
