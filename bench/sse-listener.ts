// A subscriber of `GET /api/events`, as a browser's EventSource reads it. The arrival time of a
// frame is taken when its bytes come off the socket, before any parsing, so the figure is the
// server's delivery latency plus the kernel, not this client's JSON work.
import http from "node:http";

export interface SseEvent {
  name: string;
  /** The envelope (`{id, name, created, run_id, task_id, data}`). */
  envelope: { run_id: string | null; created: string; data: Record<string, unknown> };
}

export type SseHandler = (event: SseEvent, arrivedAt: number) => void;

function parseBlock(block: string): SseEvent | null {
  let name = "";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) name = line.slice(7);
    else if (line.startsWith("data: ")) data = line.slice(6);
  }
  if (!name || !data || name === "resync") return name === "resync" ? RESYNC : null;
  return { name, envelope: JSON.parse(data) };
}

const RESYNC: SseEvent = { name: "resync", envelope: { run_id: null, created: "", data: {} } };

export class SseListener {
  readonly #req: http.ClientRequest;
  #buffer = "";
  /** Set when the server told this reader it fell behind (events were dropped). */
  resyncs = 0;

  private constructor(req: http.ClientRequest) {
    this.#req = req;
  }

  /** Opens the stream; resolves once the server answered 200 (its bus subscription is live). */
  static open(base: string, path: string, onEvent: SseHandler, ms = 30_000): Promise<SseListener> {
    const url = new URL(path, base);
    return new Promise((resolve, reject) => {
      const req = http.get(url, { agent: false, headers: { accept: "text/event-stream" } });
      const listener = new SseListener(req);
      const timer = setTimeout(() => req.destroy(new Error("event stream did not open")), ms);
      // `on`, not `once`: a stream closed under load can report more than one error, and an
      // unhandled second one would crash the driver (rejecting twice is harmless).
      req.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.once("response", (res) => {
        clearTimeout(timer);
        if (res.statusCode !== 200) return reject(new Error(`events: ${res.statusCode}`));
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => listener.#take(chunk, performance.now(), onEvent));
        res.on("error", () => {});
        resolve(listener);
      });
    });
  }

  #take(chunk: string, at: number, onEvent: SseHandler): void {
    this.#buffer += chunk;
    let end = this.#buffer.indexOf("\n\n");
    while (end >= 0) {
      const event = parseBlock(this.#buffer.slice(0, end));
      this.#buffer = this.#buffer.slice(end + 2);
      if (event === RESYNC) this.resyncs += 1;
      else if (event) onEvent(event, at);
      end = this.#buffer.indexOf("\n\n");
    }
  }

  close(): void {
    this.#req.destroy();
  }
}
