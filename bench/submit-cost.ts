// What one submit costs the server, apart from the steps it leads to:
//   node --import tsx bench/submit-cost.ts [submits per round] [rounds]
// "yardmaster": a real server (bench/server-handle.ts) whose `nap` pool has one slot, so the
// runs pile up queued and almost no step runs; each round POSTs the submits with 64 in flight
// and reads the server's CPU time before and after. "fastify floor": the same client against a
// bare fastify route that answers 201 with a run id and does nothing else, in its own process:
// what the HTTP layer alone costs on this machine. The first round is cold (V8 still compiling);
// the later ones are the steady state. "yardmaster batch": the same server and runs, submitted
// through the batch endpoint (`POST /api/workflows/{name}/runs/batch`) 1,000 runs per request:
// its CPU per run beside the single submit's is what a bulk producer saves.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { submitBatches, submitMany } from "./completions.ts";
import { HttpClient } from "./http-client.ts";
import { cpuMs } from "./server-handle.ts";
import { withSession } from "./session.ts";

const SUBMITS = Number(process.argv[2] ?? 4000);
const ROUNDS = Number(process.argv[3] ?? 3);
const FLOOR_PORT = 18_598;

const BATCH = 1_000;

async function rounds(
  name: string,
  client: HttpClient,
  cpu: () => number,
  batched = false,
): Promise<number[]> {
  const costs: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const before = cpu();
    const sent = batched
      ? await submitBatches(client, "nap", SUBMITS, BATCH, () => "chain")
      : await submitMany(client, "nap", SUBMITS, 64, () => "chain");
    const wall = sent.lastAnsweredAt - sent.firstSentAt;
    const perSubmit = ((cpu() - before) * 1000) / SUBMITS;
    const rate = Math.round((SUBMITS * 1000) / wall);
    console.log(
      `${name.padEnd(15)} round ${round}: ${rate} submits/s, ${perSubmit.toFixed(0)} µs CPU each`,
    );
    costs.push(perSubmit);
  }
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

if (process.argv.includes("--floor")) {
  await floorServer();
} else {
  await withSession({ pools: { bench: 1 }, workflows: { nap: "bench" } }, async (s) => {
    const single = await rounds("yardmaster", s.client, () => s.server.cpuMs());
    const batch = await rounds("yardmaster batch", s.client, () => s.server.cpuMs(), true);
    // Round by round (cold against cold): the target is a batch at least 5x cheaper per run.
    const ratios = single.map((c, i) => (c / batch[i]).toFixed(1));
    console.log(`single / batch CPU per run, by round: ${ratios.join(", ")}x (target >= 5x)`);
  });
  await measureFloor();
}
