// `npm run bench` end to end at toy sizes: every workload runs against a real server process
// and prints its figures, the run exits 0, and nothing is left behind in the temp directory.
// No figure is judged: this proves the harness works, not that the engine is fast.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { findPostgresBin } from "../support/postgres-cluster.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const scratch = mkdtempSync(join(tmpdir(), "ym-bench-smoke-"));
const childTmp = join(scratch, "tmp");
const outFile = join(scratch, "latest.json");

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SIZES = {
  BENCH_QUICK: "1",
  BENCH_W1_RUNS: "50",
  BENCH_W2_RATE: "50",
  BENCH_W2_SECONDS: "1",
  BENCH_W2_WARMUP_S: "0",
  BENCH_W3_RUNS: "5",
  BENCH_W3_WIDTH: "4",
  BENCH_W4_ATTEMPTS: "20",
  BENCH_W4_SLEEP_MS: "20",
  BENCH_W5_RUNS: "60",
  BENCH_W5_SUBSCRIBERS: "10",
  BENCH_W5_EVENTS: "2",
  BENCH_W5_LISTS: "2",
  BENCH_W5_GETS: "5",
  BENCH_TIMEOUT_S: "60",
};

function runBench(
  args: string[] = [],
  extra: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...SIZES, TMPDIR: childTmp, BENCH_OUT: outFile };
  for (const key of ["BENCH_PROFILE", "BENCH_TRACE", "BENCH_REPEAT", "BENCH_STORE"])
    delete env[key];
  Object.assign(env, extra);
  const argv = ["--import", "tsx", "bench/run.ts", ...args];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, argv, { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const timer = setTimeout(() => child.kill("SIGTERM"), 150_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The figure each workload must have measured (a number, not null). */
const EXPECTED: Record<string, string> = {
  W1: "steps_per_s",
  "W1-warm": "steps_per_s",
  W1B: "steps_per_s",
  "W1B-warm": "steps_per_s",
  W1F: "steps_per_s",
  "W1F-warm": "steps_per_s",
  W2: "p99_ms",
  W3: "steps_per_s",
  "W3-warm": "steps_per_s",
  W4: "ratio",
  "W4-warm": "ratio",
  "W4-fan": "ratio",
  "W4-fan-warm": "ratio",
  "W5-list": "p50_ms",
  "W5-get": "p99_ms",
  "W5-sse": "p99_ms",
};

it("runs every workload at toy sizes and prints its figures", { timeout: 180_000 }, async () => {
  mkdirSync(childTmp, { recursive: true });
  const { code, stdout, stderr } = await runBench();
  expect(code, stderr).toBe(0);
  const rows = stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line));
  expect(rows.map((r) => r.workload)).toEqual(Object.keys(EXPECTED));
  for (const row of rows) {
    expect(typeof row[EXPECTED[row.workload]], `${row.workload} ${JSON.stringify(row)}`).toBe(
      "number",
    );
    expect(row.failed ?? 0).toBe(0);
    if (typeof row.submit_ms === "number") {
      // Batch rounds count the runs that ended before the last submit was answered.
      expect(row.ended_while_submitting).toBeGreaterThanOrEqual(0);
      expect(row.ended_while_submitting).toBeLessThanOrEqual(row.runs);
    }
  }
  expect(rows.find((r) => r.workload === "W1F").note).toBe("synchronous=FULL");
  for (const name of Object.keys(EXPECTED)) expect(stdout).toContain(`\n${name} `);
  // The targets block, each with this run's figure (every workload ran).
  expect(stdout).toContain("Targets (printed, never asserted):");
  expect(stdout).toMatch(/W2 p99 at 100 runs\/s: [\d.]+ ms \(target < 10 ms\)/);
  expect(stdout).toMatch(/W4 wall \/ whole-wave ideal: [\d.]+x/);
  const report = JSON.parse(readFileSync(outFile, "utf8"));
  expect(report.figures).toHaveLength(rows.length);
  // Every server's temp directory (store, config) was removed (tsx keeps its cache there).
  expect(readdirSync(childTmp).filter((f) => f.startsWith("ym-bench-"))).toEqual([]);
});

const pgBin = await findPostgresBin();

it.skipIf(pgBin === null)(
  "BENCH_STORE=postgres measures on a throwaway cluster and removes it",
  { timeout: 180_000 },
  async () => {
    mkdirSync(childTmp, { recursive: true });
    // Under root the cluster runs as the `postgres` user, who must reach its folder in here.
    for (const dir of [scratch, childTmp]) chmodSync(dir, 0o755);
    const { code, stdout, stderr } = await runBench(["W1", "W2"], {
      BENCH_STORE: "postgres",
      BENCH_WARM: "0",
    });
    expect(code, stderr).toBe(0);
    const rows = stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    expect(rows.map((r) => r.workload)).toEqual(["W1", "W2"]);
    for (const row of rows) {
      expect(row.failed ?? 0).toBe(0);
      expect(typeof row.cpu_ms_per_step, JSON.stringify(row)).toBe("number");
      expect(row.store_cpu_pct, JSON.stringify(row)).toBeGreaterThan(0);
    }
    expect(rows[0].note).toBe("postgres, synchronous_commit=on");
    expect(rows[0].store_kib_per_1000_runs).toBeGreaterThan(0);
    const left = readdirSync(childTmp).filter(
      (f) => f.startsWith("ym-bench-") || f.startsWith("pgwork-cluster-"),
    );
    expect(left).toEqual([]);
  },
);
