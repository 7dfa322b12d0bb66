// W2: open-loop submission of the chain at a fixed rate (each POST leaves on its schedule
// whether or not earlier ones have answered), and the latency from sending the POST to seeing
// the run's `run.completed` on the event stream. A short warm-up at the same rate runs first so
// the figures are of a warm server (JIT, caches), not of its first second.
import { BLANK, type Figure, latencies, round } from "../figures.ts";
import type { HttpClient } from "../http-client.ts";
import type { BenchOptions } from "../options.ts";
import { diagnostics, type Session, withSession } from "../session.ts";

interface Paced {
  sentAt: Map<string, number>;
  errors: number;
}

/** Sends `count` submits, the i-th at start + i / rate seconds (catching up if late). */
async function pace(client: HttpClient, rate: number, count: number): Promise<Paced> {
  const sentAt = new Map<string, number>();
  const posts: Array<Promise<void>> = [];
  let errors = 0;
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const sent = performance.now();
    posts.push(
      client.submit("chain3", `paced ${i}`).then(
        (id) => {
          sentAt.set(id, sent);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(posts);
  return { sentAt, errors };
}

async function measure(s: Session, options: BenchOptions) {
  const { client, completions } = s;
  const { rate, seconds, warmupSeconds } = options.w2;
  const warm = await pace(client, rate, Math.round(rate * warmupSeconds));
  await completions.waitFor(warm.sentAt.keys(), options.timeoutMs);
  const cpuBefore = s.server.cpuMs();
  const storeBefore = s.server.storeCpuMs();
  const paced = await pace(client, rate, Math.round(rate * seconds));
  await completions.waitFor(paced.sentAt.keys(), options.timeoutMs);
  const cpuMs = s.server.cpuMs() - cpuBefore;
  const storeCpuMs = s.server.storeCpuMs() - storeBefore;
  const samples = [...paced.sentAt].map(([id, sent]) => completions.ended.get(id)! - sent);
  const first = Math.min(...paced.sentAt.values());
  const last = Math.max(...[...paced.sentAt.keys()].map((id) => completions.ended.get(id)!));
  return {
    samples,
    errors: paced.errors,
    wallMs: last - first,
    runs: paced.sentAt.size,
    cpuMs,
    storeCpuMs,
  };
}

export async function w2(options: BenchOptions, rep: number): Promise<Figure> {
  const spec = {
    pools: { bench: options.w2.capacity },
    workflows: { chain3: "bench" },
    ...diagnostics(options, `W2-${rep}`),
  };
  const { value } = await withSession(spec, async (s) => ({
    ...(await measure(s, options)),
    rssMib: s.server.peakRssMib(),
  }));
  const { rate, seconds } = options.w2;
  return {
    workload: "W2",
    ...BLANK,
    runs_per_s: round((value.runs * 1000) / value.wallMs),
    steps_per_s: round((value.runs * 3 * 1000) / value.wallMs),
    ...latencies(value.samples),
    rss_mib: round(value.rssMib),
    runs: value.runs,
    max_ms: round(Math.max(...value.samples)),
    server_cpu_pct: round((100 * value.cpuMs) / value.wallMs),
    store_cpu_pct: round((100 * value.storeCpuMs) / value.wallMs),
    cpu_ms_per_step: round((value.cpuMs + value.storeCpuMs) / (value.runs * 3)),
    failed: value.errors,
    note: `open loop ${rate}/s for ${seconds} s`,
  };
}
