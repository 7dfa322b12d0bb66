// One measured session: a fresh server (own process, own SQLite file or PostgreSQL schema), an HTTP client and a
// subscriber that observes run ends, all torn down whatever happens.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Completions } from "./completions.ts";
import { HttpClient } from "./http-client.ts";
import { type BenchOptions, scrapeInterval } from "./options.ts";
import { type BenchServer, type ServerSpec, startBenchServer } from "./server-handle.ts";

export interface Session {
  server: BenchServer;
  client: HttpClient;
  completions: Completions;
}

export interface SessionResult<T> {
  value: T;
  /** Store size on disk after the server closed it (WAL checkpointed). */
  storeBytes: number;
}

/** CPU profile and store trace of a workload repetition, when they are asked for. */
export function diagnostics(options: BenchOptions, name: string): Partial<ServerSpec> {
  const out: Partial<ServerSpec> = {};
  if (options.profileDir) {
    mkdirSync(options.profileDir, { recursive: true });
    out.profileFile = join(options.profileDir, `${name}.cpuprofile`);
  }
  if (options.traceDir) {
    mkdirSync(options.traceDir, { recursive: true });
    out.traceFile = join(options.traceDir, `${name}.json`);
  }
  if (options.latencyDir) {
    mkdirSync(options.latencyDir, { recursive: true });
    out.latencyFile = join(options.latencyDir, `${name}.json`);
  }
  return out;
}

export async function withSession<T>(
  spec: ServerSpec,
  fn: (session: Session) => Promise<T>,
): Promise<SessionResult<T>> {
  const server = await startBenchServer(spec);
  let client: HttpClient | null = null;
  let completions: Completions | null = null;
  const scraper = scrape(server.url);
  try {
    client = new HttpClient(server.urls);
    completions = await Completions.open(server.urls);
    const value = await fn({ server, client, completions });
    completions.close();
    client.close();
    return { value, storeBytes: await server.stop() };
  } finally {
    scraper.stop();
    completions?.close();
    client?.close();
    await server.stop();
  }
}

/** GET /metrics every BENCH_SCRAPE_MS, each scrape read whole, one at a time, like a scraper. */
function scrape(url: string): { stop(): void } {
  const every = scrapeInterval();
  if (every === null) return { stop() {} };
  let busy = false;
  const timer = setInterval(() => {
    if (busy) return;
    busy = true;
    fetch(`${url}/metrics`)
      .then((res) => res.text())
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  }, every);
  return { stop: () => clearInterval(timer) };
}
