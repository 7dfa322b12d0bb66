// The floor's HTTP side, on node:http with no framework: `POST /api/workflows/chain3/runs`
// (a JSON body with a string title; 201 with the run id once committed) and `GET /api/events`
// (server-sent events, optionally filtered by `names`), each frame built once and written to
// every matching subscriber, corked for the rest of the turn. Forked by bench/floor-w1.ts with
// the store file as its argument (or `memory`: no store at all; bench/floor-pg.ts: a PostgreSQL
// URL), it reports its port by IPC.
import http from "node:http";
import { ChainFloorEngine, type FloorStore } from "./chain-floor-engine.ts";
import { ChainFloorStore, type StoredEvent } from "./chain-floor-store.ts";

interface Subscriber {
  res: http.ServerResponse;
  names: Set<string> | null;
}

const subscribers = new Set<Subscriber>();

function publish(events: StoredEvent[]): void {
  for (const s of subscribers) s.res.cork();
  for (const event of events) {
    const envelope = { ...event, created: new Date(event.created).toISOString() };
    const frame = `id: ${event.id}\nevent: ${event.name}\ndata: ${JSON.stringify(envelope)}\n\n`;
    for (const s of subscribers) if (!s.names || s.names.has(event.name)) s.res.write(frame);
  }
  for (const s of subscribers) s.res.uncork();
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

function submit(engine: ChainFloorEngine, req: http.IncomingMessage, res: http.ServerResponse) {
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
    engine.submit(title).then((run_id) => answer(res, 201, { run_id, workflow: "chain3" }));
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

// The store: `memory`, a PostgreSQL URL (bench/floor/pg-floor-store.ts) or a SQLite file; then the
// pool's size, the most operations a transaction takes (default all waiting: group commit) and
// the commits in flight at once (default 1).
const target = process.argv[2] ?? "memory";
const store =
  target === "memory"
    ? memoryStore()
    : target.startsWith("postgres")
      ? await (await import("./pg-floor-store.ts")).PgFloorStore.fromTarget(target)
      : new ChainFloorStore(target);
const batch = Number(process.argv[4] ?? Number.POSITIVE_INFINITY);
const depth = Number(process.argv[5] ?? 1);
const engine = new ChainFloorEngine(store, Number(process.argv[3] ?? 8), publish, batch, depth);
const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  if (req.method === "POST" && req.url === "/api/workflows/chain3/runs") submit(engine, req, res);
  else if (req.method === "GET" && req.url?.startsWith("/api/events")) subscribe(req, res);
  else answer(res, 404, { code: "not_found" });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
