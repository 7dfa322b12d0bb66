// W5: the read side over a store of finished runs. The runs are made the way users make them
// (submitted over HTTP and run by the engine), then: `GET /api/runs` (the whole list, as the
// contract wants it unpaged), `GET /api/runs/{id}` of random runs, and the delivery of one
// event to many connected `/api/events` subscribers.
import { submitMany } from "../completions.ts";
import { BLANK, type Figure, latencies, round } from "../figures.ts";
import type { HttpClient } from "../http-client.ts";
import type { BenchOptions } from "../options.ts";
import { diagnostics, type Session, withSession } from "../session.ts";
import { fanOutLatency } from "./fan-out.ts";

async function timed(client: HttpClient, path: string): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const reply = await client.request("GET", path);
  const ms = performance.now() - start;
  if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.text}`);
  return { ms, bytes: Buffer.byteLength(reply.text) };
}

async function seed(s: Session, options: BenchOptions): Promise<{ ids: string[]; ms: number }> {
  const start = performance.now();
  const sent = await submitMany(
    s.client,
    "chain3",
    options.w5.runs,
    options.inFlight,
    () => "seed",
  );
  const ids = [...sent.sentAt.keys()];
  await s.completions.waitFor(ids, options.timeoutMs);
  return { ids, ms: performance.now() - start };
}

async function reads(s: Session, options: BenchOptions, ids: string[]) {
  const lists: number[] = [];
  let bytes = 0;
  for (let i = 0; i < options.w5.lists; i++) {
    const r = await timed(s.client, "/api/runs");
    lists.push(r.ms);
    bytes = r.bytes;
  }
  const gets: number[] = [];
  for (let i = 0; i < options.w5.gets; i++) {
    const id = ids[Math.floor(Math.random() * ids.length)];
    gets.push((await timed(s.client, `/api/runs/${id}`)).ms);
  }
  return { lists, gets, bytes };
}

/** Three figures: W5-list, W5-get and W5-sse. */
export async function w5(options: BenchOptions, rep: number): Promise<Figure[]> {
  const spec = {
    pools: { bench: options.w1.capacity },
    workflows: { chain3: "bench" },
    ...diagnostics(options, `W5-${rep}`),
  };
  const { value, storeBytes } = await withSession(spec, async (s) => {
    const seeded = await seed(s, options);
    const read = await reads(s, options, seeded.ids);
    const sse = await fanOutLatency(s, options);
    return { seeded, read, sse, rssMib: s.server.peakRssMib() };
  });
  const runs = options.w5.runs;
  const common = { ...BLANK, rss_mib: round(value.rssMib), runs };
  return [
    {
      workload: "W5-list",
      ...common,
      ...latencies(value.read.lists),
      response_kib: round(value.read.bytes / 1024),
      seed_runs_per_s: round((runs * 1000) / value.seeded.ms),
      store_kib_per_1000_runs: round(storeBytes / 1024 / (runs / 1000)),
      note: `GET /api/runs over ${runs} runs`,
    },
    { workload: "W5-get", ...common, ...latencies(value.read.gets), note: "GET /api/runs/{id}" },
    {
      workload: "W5-sse",
      ...common,
      ...latencies(value.sse.fromSubmit),
      commit_p50_ms: round(value.sse.fromCommit.p50),
      commit_p99_ms: round(value.sse.fromCommit.p99),
      resyncs: value.sse.resyncs,
      note: `${value.sse.subscribers} subscribers x ${value.sse.events} events`,
    },
  ];
}
