// The floor's HTTP side, on node:http with no framework: `POST /api/workflows/{name}/runs` for
// the floor's workflows (a JSON body with a string title; 201 with the run id once committed)
// and `GET /api/events` (server-sent events, optionally filtered by `names`), a frame built once
// for an event some subscriber takes and written to each of them, corked for the turn; by IPC,
// `floor-stats` answers the engine's counters (commits, hand-off lateness). Forked by
// bench/floor.ts with the store file (or `memory`: no store at all; bench/floor-pg.ts: a
// PostgreSQL URL) and the pool's capacity as its arguments, it reports its port by IPC. FLOOR_PROFILE_FILE: a CPU profile of the serving
// window, as BENCH_PROFILE takes of the real server (bench/cpu-profiler.ts).
import http from "node:http";
import { startCpuProfile } from "../cpu-profiler.ts";
import { FloorEngine, type FloorStore } from "./floor-engine.ts";
import { FloorSqliteStore, type StoredEvent } from "./floor-store.ts";
import { FLOOR_WORKFLOWS } from "./floor-workflows.ts";

interface Subscriber {
  res: http.ServerResponse;
  names: Set<string> | null;
}

const subscribers = new Set<Subscriber>();

// A frame is built only for an event some subscriber takes, once for all of them.
function publish(events: StoredEvent[]): void {
  for (const s of subscribers) s.res.cork();
  for (const event of events) {
    let frame: string | null = null;
    for (const s of subscribers) {
      if (s.names && !s.names.has(event.name)) continue;
      frame ??= frameOf(event);
      s.res.write(frame);
    }
  }
  for (const s of subscribers) s.res.uncork();
}

function frameOf(event: StoredEvent): string {
  const envelope = { ...event, created: new Date(event.created).toISOString() };
  return `id: ${event.id}\nevent: ${event.name}\ndata: ${JSON.stringify(envelope)}\n\n`;
}

/** Counts instead of rows: what the same engine and HTTP work cost without a store. */
function memoryStore(): FloorStore {
  let task = 0;
  let event = 0;
  return {
    transaction: (fn) => fn(),
    insertRun() {},
    finishRun() {},
    insertTask: () => ++task,
    claimTask() {},
    finishTask() {},
    insertArrival() {},
    bindArrivals() {},
    appendEvents: (events, now) => events.map((e) => ({ ...e, id: ++event, created: now })),
  };
}

function subscribe(req: http.IncomingMessage, res: http.ServerResponse): void {
  const names = new URL(req.url ?? "/", "http://floor").searchParams.get("names");
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
  res.flushHeaders();
  const subscriber = { res, names: names ? new Set(names.split(",")) : null };
  subscribers.add(subscriber);
  res.on("close", () => subscribers.delete(subscriber));
}

const RUNS = /^\/api\/workflows\/([a-z0-9]+)\/runs$/;

function submit(workflow: string, req: http.IncomingMessage, res: http.ServerResponse) {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    let title: unknown;
    try {
      title = JSON.parse(Buffer.concat(chunks).toString("utf8")).title;
    } catch {
      title = undefined;
    }
    if (typeof title !== "string") return answer(res, 422, { code: "validation_error" });
    engine.submit(workflow, title).then((run_id) => answer(res, 201, { run_id, workflow }));
  });
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

// The store: `memory`, a PostgreSQL URL (bench/floor/pg-floor-store.ts: W1 and W4) or a SQLite
// file; then the pool's size, the most operations a transaction takes (default all waiting:
// group commit) and the commits in flight at once (default 1).
const target = process.argv[2] ?? "memory";
const store =
  target === "memory"
    ? memoryStore()
    : target.startsWith("postgres")
      ? await (await import("./pg-floor-store.ts")).PgFloorStore.fromTarget(target)
      : new FloorSqliteStore(target);
const batch = Number(process.argv[4] ?? Number.POSITIVE_INFINITY);
const depth = Number(process.argv[5] ?? 1);
const capacity = Number(process.argv[3] ?? 8);
const engine = new FloorEngine(store, FLOOR_WORKFLOWS, capacity, publish, batch, depth);
// The engine's counters for the drivers (bench/floor/floor-rounds.ts).
process.on("message", (m) => {
  if (m === "floor-stats") process.send?.({ floorStats: engine.stats });
});
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const workflow = req.method === "POST" ? RUNS.exec(req.url ?? "")?.[1] : undefined;
  if (workflow && engine.has(workflow)) submit(workflow, req, res);
  else if (req.method === "GET" && req.url?.startsWith("/api/events")) subscribe(req, res);
  else answer(res, 404, { code: "not_found" });
});
const profile = process.env.FLOOR_PROFILE_FILE;
const stopProfile = profile ? await startCpuProfile(profile) : null;
process.on("SIGTERM", async () => {
  await stopProfile?.();
  process.exit(0);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
