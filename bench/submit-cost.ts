// What one submit costs the server, apart from the steps it leads to:
//   node --import tsx bench/submit-cost.ts [submits per round] [rounds]
// "yardmaster": a real server (bench/server-handle.ts) whose `nap` pool has one slot, so the
// runs pile up queued and almost no step runs; each round POSTs the submits with 64 in flight
// and reads the server's CPU time before and after. BENCH_PROFILE=1 writes a CPU profile of each
// server (submit-single, submit-batch) to bench/results/profiles/; BENCH_FLOOR=0 skips the floor. "fastify floor": the same client against a
// bare fastify route that answers 201 with a run id and does nothing else, in its own process:
// what the HTTP layer alone costs on this machine. The first round is cold (V8 still compiling);
// the later ones are the steady state. "yardmaster batch": the same server and runs, submitted
// through the batch endpoint (`POST /api/workflows/{name}/runs/batch`) 1,000 runs per request,
// on a second fresh server started beside the first, their rounds alternating: its CPU per run
// beside the single submit's, cold round against cold round and warm (the median of the later
// rounds) against warm, is what a bulk producer saves.
// The ratios go to bench/results/submit-cost.json, which `npm run bench` shows under its targets.
import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { submitBatches, submitMany } from "./completions.ts";
import { HttpClient } from "./http-client.ts";
import { readOptions } from "./options.ts";
import { cpuMs } from "./server-handle.ts";
import { diagnostics, withSession } from "./session.ts";
import { SUBMIT_COST_FILE, type SubmitCost } from "./targets.ts";

const SUBMITS = Number(process.argv[2] ?? 4000);
// Six: a batch round is only four requests, so the batch path is still being compiled in its
// second round; the median of five warm rounds is the steady state.
const ROUNDS = Number(process.argv[3] ?? 6);
const FLOOR_PORT = 18_598;

const BATCH = 1_000;

/** One round: `SUBMITS` runs, singly with 64 in flight or in batches; answers CPU µs per run. */
async function round(
  name: string,
  n: number,
  client: HttpClient,
  cpu: () => number,
  batched = false,
): Promise<number> {
  const before = cpu();
  const sent = batched
    ? await submitBatches(client, "nap", SUBMITS, BATCH, () => "chain")
    : await submitMany(client, "nap", SUBMITS, 64, () => "chain");
  const wall = sent.lastAnsweredAt - sent.firstSentAt;
  const perSubmit = ((cpu() - before) * 1000) / SUBMITS;
  const rate = Math.round((SUBMITS * 1000) / wall);
  console.log(
    `${name.padEnd(16)} round ${n}: ${rate} submits/s, ${perSubmit.toFixed(0)} µs CPU each`,
  );
  return perSubmit;
}

async function rounds(name: string, client: HttpClient, cpu: () => number): Promise<number[]> {
  const costs: number[] = [];
  for (let n = 1; n <= ROUNDS; n++) costs.push(await round(name, n, client, cpu));
  return costs;
}

async function floorServer(): Promise<void> {
  const { default: Fastify } = await import("fastify");
  const app = Fastify({ logger: false });
  let n = 0;
  app.post("/api/workflows/:name/runs", async (_request, reply) => {
    reply.code(201);
    return { run_id: `01KAWZ3N8Q${String(n++).padStart(16, "0")}` };
  });
  await app.listen({ port: FLOOR_PORT, host: "127.0.0.1" });
  process.send?.("listening");
}

async function measureFloor(): Promise<void> {
  const script = fileURLToPath(import.meta.url);
  const child: ChildProcess = fork(script, ["--floor"], { execArgv: ["--import", "tsx"] });
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("floor server did not start")), 20_000);
      child.once("message", () => resolve(clearTimeout(timer)));
      child.once("exit", (code) => reject(new Error(`floor server exited with ${code}`)));
    });
    const client = new HttpClient(`http://127.0.0.1:${FLOOR_PORT}`, { timeoutMs: 30_000 });
    await rounds("fastify floor", client, () => cpuMs(child.pid!));
    client.close();
  } finally {
    child.kill();
  }
}

/** Median of the warm rounds (every round after the first). */
const warmOf = (costs: number[]) => {
  const warm = costs.slice(1).sort((a, b) => a - b);
  return warm.length ? warm[Math.floor((warm.length - 1) / 2)]! : null;
};

if (process.argv.includes("--floor")) {
  await floorServer();
} else {
  // Each kind on its own fresh server, so its first round is cold (V8 has compiled neither
  // path) and its queue starts empty: cold against cold, warm against warm.
  const options = readOptions([]);
  const spec = { pools: { bench: 1 }, workflows: { nap: "bench" } };
  // Both servers run side by side and their rounds alternate (single, batch, single, ...), so
  // a change in the machine's load between the two kinds cannot tilt the ratio.
  const single: number[] = [];
  const batch: number[] = [];
  await withSession({ ...spec, ...diagnostics(options, "submit-single") }, (one) =>
    withSession({ ...spec, ...diagnostics(options, "submit-batch") }, async (many) => {
      for (let n = 1; n <= ROUNDS; n++) {
        single.push(await round("yardmaster", n, one.client, () => one.server.cpuMs()));
        batch.push(
          await round("yardmaster batch", n, many.client, () => many.server.cpuMs(), true),
        );
      }
    }),
  );
  const coldRatio = single[0]! / batch[0]!;
  const warmSingle = warmOf(single);
  const warmBatch = warmOf(batch);
  const warmRatio = warmSingle !== null && warmBatch !== null ? warmSingle / warmBatch : null;
  console.log(
    `single / batch CPU per run: cold ${coldRatio.toFixed(1)}x` +
      (warmRatio === null ? "" : `, warm ${warmRatio.toFixed(1)}x (median of rounds 2-${ROUNDS})`) +
      " (target >= 5x, warm against warm)",
  );
  // bench/targets.ts shows the ratio under `npm run bench` when this file is there.
  const result: SubmitCost = {
    at: new Date().toISOString(),
    submits: SUBMITS,
    rounds: ROUNDS,
    single_us: single.map((c) => Math.round(c)),
    batch_us: batch.map((c) => Math.round(c)),
    cold_ratio: Number(coldRatio.toFixed(2)),
    warm_ratio: warmRatio === null ? null : Number(warmRatio.toFixed(2)),
  };
  mkdirSync(dirname(SUBMIT_COST_FILE), { recursive: true });
  writeFileSync(SUBMIT_COST_FILE, `${JSON.stringify(result, null, 2)}\n`);
  if (process.env.BENCH_FLOOR !== "0") await measureFloor();
}
