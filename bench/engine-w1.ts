// W1 without HTTP: the engine and the SQLite store of a worktree, in this process, on a fresh
// file. Submits `runs` chain3 runs through `engine.commands.submitRun` (64 in flight, as the
// bench's driver keeps 64 requests in flight), waits for every `run.completed` on the bus, and
// prints one JSON line per round: the process's CPU per step over the round (all threads, the
// main thread alone) and steps/s.
//   node --import tsx bench/engine-w1.ts [runs] [worktree root ...] [--rounds N]
// One root (default this worktree), one round: a fresh process is a cold engine, as W1's cold
// round is; run it alternately on two worktrees to A/B the step path cold. Two roots and
// --rounds N: N rounds of each, alternating A B A B ... in this one process, each on a fresh
// store and engine, then the median of each root's rounds after its first (warm); the machine's
// load falls on both alike. Neither has HTTP, SSE, telemetry or a driver in its figures.
// ENGINE_W1_PROFILE=<file> adds a CPU profile of the (first) window.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startCpuProfile } from "./cpu-profiler.ts";
import { cpuMs } from "./server-handle.ts";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const ROUNDS = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 1;
const RUNS = Number(args[0] ?? 2000);
const ROOTS =
  args.length > 1 ? args.slice(1).map((r) => resolve(r)) : [join(import.meta.dirname, "..")];
const CAPACITY = 8;
const IN_FLIGHT = 64;

interface Round {
  root: string;
  steps_per_s: number;
  cpu_us_per_step: number;
  main_cpu_us_per_step: number;
  load: string;
}

async function round(ROOT: string, profileFile?: string): Promise<Round> {
  const engineModule = await import(join(ROOT, "src/engine/index.ts"));
  const { workflow } = await import(join(ROOT, "src/index.ts"));
  const { openSqliteStore } = await import(join(ROOT, "src/stores/sqlite/index.ts"));
  const dir = mkdtempSync(join(tmpdir(), "ym-engine-w1-"));
  const store = await openSqliteStore(join(dir, "store.db"));
  const engine = new engineModule.Engine({
    store,
    pools: { bench: { capacity: CAPACITY } },
    onError: (err: unknown) => process.stderr.write(`engine: ${String(err)}\n`),
  });
  const chain3 = workflow("chain3");
  chain3.node({ start: true }, async function a({ b }: { b: (n: number) => unknown }) {
    return b(1);
  });
  chain3.node(async function b({ c }: { c: (n: number) => unknown }, n: number) {
    return c(n + 1);
  });
  chain3.node(async function c({}, n: number) {
    return n + 1;
  });
  engine.register({
    name: "chain3",
    graph: chain3.finalize(),
    workflow: chain3,
    pool: "bench",
    target: null,
    file: null,
    loaded: null,
  });
  await engine.start();
  let ended = 0;
  let resolveAll: () => void = () => {};
  const all = new Promise<void>((r) => {
    resolveAll = r;
  });
  engine.bus.subscribe((e: { name: string }) => {
    if (e.name === "run.completed" || e.name === "run.failed") {
      ended += 1;
      if (ended === RUNS) resolveAll();
    }
  });
  const endProfile = profileFile ? await startCpuProfile(profileFile) : null;
  const main = `/proc/self/task/${process.pid}/stat`;
  const cpu0 = process.cpuUsage();
  const main0 = cpuMs(process.pid, main);
  const t0 = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < RUNS) {
      next += 1;
      await engine.commands.submitRun("chain3", { title: "a run" });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  const timeout = setTimeout(() => {
    process.stderr.write(`engine-w1: ${ended} of ${RUNS} runs ended in 120 s\n`);
    process.exit(1);
  }, 120_000);
  await all;
  clearTimeout(timeout);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const mainMs = cpuMs(process.pid, main) - main0;
  await endProfile?.();
  const steps = RUNS * 3;
  await engine.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  return {
    root: ROOT,
    steps_per_s: Math.round((steps * 1000) / wallMs),
    cpu_us_per_step: Math.round(((cpu.user + cpu.system) / steps) * 10) / 10,
    main_cpu_us_per_step: Math.round(((mainMs * 1000) / steps) * 10) / 10,
    load: readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" "),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  // ENGINE_W1_PROFILE=<file>: a CPU profile of the first window (bench/profile-split.ts).
  const profileFile = process.env.ENGINE_W1_PROFILE;
  const rounds = new Map<string, Round[]>(ROOTS.map((r) => [r, []]));
  for (let i = 0; i < ROUNDS; i++) {
    for (const root of ROOTS) {
      const r = await round(root, i === 0 && root === ROOTS[0] ? profileFile : undefined);
      rounds.get(root)!.push(r);
      console.log(JSON.stringify({ round: i + 1, ...r }));
    }
  }
  if (ROUNDS < 2) return;
  for (const [root, all] of rounds) {
    const warm = all.slice(1);
    console.log(
      JSON.stringify({
        root,
        warm_rounds: warm.length,
        median_cpu_us_per_step: median(warm.map((r) => r.cpu_us_per_step)),
        median_main_cpu_us_per_step: median(warm.map((r) => r.main_cpu_us_per_step)),
        median_steps_per_s: median(warm.map((r) => r.steps_per_s)),
      }),
    );
  }
}

main().catch((err) => {
  process.stderr.write(`engine-w1: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
