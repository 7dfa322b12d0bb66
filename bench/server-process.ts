// The measured server, in a process of its own so that its RSS can be read from /proc and the
// load generator does not share its event loop or its core:
//   node --import tsx bench/server-process.ts <config.toml> [--synchronous=FULL]
// It starts the server exactly as `yardmaster serve` does (`loadConfig` + `startServer`),
// prints one JSON line `{"url", "pid", "synchronous"}` when it listens, and stops cleanly on
// SIGTERM/SIGINT or when its stdin closes (the driver died). Diagnostics, off unless asked:
// BENCH_PROFILE_FILE records a CPU profile of the serving window (bench/cpu-profiler.ts) and
// BENCH_TRACE_FILE counts and times the store calls (bench/store-trace.ts) and
// BENCH_LATENCY_FILE records latency, GC, event-loop delay and memory (bench/latency-probe.ts),
// each written to that file when the server stops.
import { writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { loadConfig } from "../src/config/index.ts";
import { createLogger } from "../src/observability/logger.ts";
import { startServer } from "../src/server/start.ts";
import { exitWhenTold } from "./child-exit.ts";
import { startCpuProfile } from "./cpu-profiler.ts";
import { installLatencyProbe } from "./latency-probe.ts";
import { installStoreTrace } from "./store-trace.ts";

interface PragmaStore {
  pragma(name: string): unknown;
}

/**
 * `synchronous` is a per-connection setting the store URL cannot carry yet, so it is set on
 * the running store's writer connection through the store's diagnostics `pragma` (which runs
 * the text it is given) and read back to prove it took. Not for production use.
 */
function setSynchronous(store: unknown, mode: string): unknown {
  const pragmatic = store as Partial<PragmaStore>;
  if (typeof pragmatic.pragma !== "function") {
    throw new Error("this store cannot set synchronous (no pragma())");
  }
  pragmatic.pragma(`synchronous = ${mode}`);
  const now = pragmatic.pragma("synchronous");
  const expected = { OFF: 0, NORMAL: 1, FULL: 2, EXTRA: 3 }[mode];
  if (now !== expected) throw new Error(`synchronous is ${String(now)}, wanted ${mode}`);
  return mode;
}

async function main(): Promise<void> {
  const [file, ...flags] = process.argv.slice(2);
  if (!file) throw new Error("usage: server-process.ts <config.toml> [--synchronous=FULL]");
  const sync = flags.find((f) => f.startsWith("--synchronous="))?.split("=")[1];
  const traceFile = process.env.BENCH_TRACE_FILE;
  const trace = traceFile ? installStoreTrace() : null;
  const config = await loadConfig({ file, cwd: dirname(file), env: process.env });
  // The log `yardmaster serve` writes when its stderr is not a terminal: JSON lines at info.
  const server = await startServer(config, {
    logger: createLogger({ level: config.log.level, format: "json" }),
  });
  const sqlite = typeof (server.engine.store as Partial<PragmaStore>).pragma === "function";
  const synchronous = sync
    ? setSynchronous(server.engine.store, sync.toUpperCase())
    : sqlite
      ? "NORMAL"
      : "synchronous_commit=on";
  const latencyFile = process.env.BENCH_LATENCY_FILE;
  const latency = latencyFile ? installLatencyProbe(server.engine) : null;
  const profileFile = process.env.BENCH_PROFILE_FILE;
  const endProfile = profileFile ? await startCpuProfile(profileFile) : null;
  exitWhenTold(async () => {
    await endProfile?.();
    await server.stop("bench finished");
    if (trace && traceFile) writeFileSync(traceFile, `${JSON.stringify(trace(), null, 1)}\n`);
    if (latency && latencyFile) writeFileSync(latencyFile, `${JSON.stringify(latency())}\n`);
  });
  process.stdout.write(`${JSON.stringify({ url: server.url, pid: process.pid, synchronous })}\n`);
}

main().catch((err) => {
  process.stderr.write(`server-process failed: ${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
