// What this machine allows W1 at all: the same driver (2,000 chain runs, 64 submits in flight,
// ends seen on the event stream, a cold and a warm round per server) against
//   yardmaster    the real server (bench/server-handle.ts), pool of 8;
//   floor         bench/floor/: the least engine that keeps W1's durable promises, on node:http
//                 and a SQLite file with nothing but the rows and events the contract stores;
//   floor-memory  the same floor without any store: the HTTP and engine work alone.
// The three are interleaved, so a slower host shows in all of them.
//   node --import tsx bench/floor-w1.ts [repetitions]
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Completions, lastEnd, submitMany } from "./completions.ts";
import { HttpClient } from "./http-client.ts";
import { cpuMs } from "./server-handle.ts";
import { withSession } from "./session.ts";
import { FLOOR_FILE, type FloorResult } from "./targets.ts";

const RUNS = Number(process.env.BENCH_W1_RUNS ?? 2000);
const REPEAT = Number(process.argv[2] ?? 2);
const STEPS = 3;

interface Round {
  stepsPerS: number;
  cpuUsPerRun: number;
}

async function round(client: HttpClient, ends: Completions, cpu: () => number): Promise<Round> {
  const before = cpu();
  const sent = await submitMany(client, "chain3", RUNS, 64, () => "chain");
  const ids = [...sent.sentAt.keys()];
  await ends.waitFor(ids, 120_000);
  const wallMs = lastEnd(ends, ids) - sent.firstSentAt;
  return {
    stepsPerS: Math.round((RUNS * STEPS * 1000) / wallMs),
    cpuUsPerRun: Math.round(((cpu() - before) * 1000) / RUNS),
  };
}

async function yardmaster(): Promise<Round[]> {
  const spec = { pools: { bench: 8 }, workflows: { chain3: "bench" } };
  const { value } = await withSession(spec, async (s) => {
    const cpu = () => s.server.cpuMs();
    return [await round(s.client, s.completions, cpu), await round(s.client, s.completions, cpu)];
  });
  return value;
}

async function floor(durable: boolean): Promise<Round[]> {
  const dir = mkdtempSync(join(tmpdir(), "ym-floor-"));
  const script = fileURLToPath(new URL("./floor/chain-floor-server.ts", import.meta.url));
  const target = durable ? join(dir, "floor.db") : "memory";
  const child: ChildProcess = fork(script, [target, "8"], { execArgv: ["--import", "tsx"] });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("floor server did not start")), 20_000);
      child.once("message", (m: { port: number }) => {
        clearTimeout(timer);
        resolve(m.port);
      });
      child.once("exit", (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    const base = `http://127.0.0.1:${port}`;
    const client = new HttpClient(base, { timeoutMs: 60_000 });
    const ends = await Completions.open(base);
    const cpu = () => cpuMs(child.pid!);
    const rounds = [await round(client, ends, cpu), await round(client, ends, cpu)];
    ends.close();
    client.close();
    return rounds;
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

const show = (name: string, [cold, warm]: Round[]) =>
  console.log(
    `${name.padEnd(13)} cold ${String(cold.stepsPerS).padStart(6)} steps/s (${cold.cpuUsPerRun} µs CPU/run)` +
      `  warm ${String(warm.stepsPerS).padStart(6)} steps/s (${warm.cpuUsPerRun} µs CPU/run)`,
  );

const per = (a: Round, b: Round) => (a.cpuUsPerRun / b.cpuUsPerRun).toFixed(2);

const result: FloorResult = { at: new Date().toISOString(), runs: RUNS, cold: [], warm: [] };
for (let rep = 1; rep <= REPEAT; rep++) {
  console.log(`repetition ${rep}`);
  const ours = await yardmaster();
  show("yardmaster", ours);
  const least = await floor(true);
  show("floor", least);
  show("floor-memory", await floor(false));
  // The target: Yardmaster's server CPU per run within 1.3x of the durable floor's.
  console.log(
    `yardmaster / floor CPU per run: cold ${per(ours[0], least[0])}x, warm ${per(ours[1], least[1])}x (target <= 1.3x)`,
  );
  result.cold.push(Number(per(ours[0], least[0])));
  result.warm.push(Number(per(ours[1], least[1])));
}
// For `npm run bench`'s target lines (bench/targets.ts).
mkdirSync(join(FLOOR_FILE, ".."), { recursive: true });
writeFileSync(FLOOR_FILE, `${JSON.stringify(result)}\n`);
