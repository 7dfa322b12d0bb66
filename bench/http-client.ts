// A lean HTTP client for the load generator: node:http over keep-alive sockets (one per request
// in flight), so the client costs little CPU next to the server it measures. Every request has
// a timeout, so no wait is unbounded. Given several servers' URLs (BENCH_SERVERS), it sends
// each request to the next one, round-robin.
import http from "node:http";

export interface Reply {
  status: number;
  text: string;
}

export class HttpClient {
  readonly #bases: URL[];
  #next = 0;
  readonly #agent: http.Agent;
  readonly #timeoutMs: number;

  constructor(
    base: string | readonly string[],
    options: { sockets?: number; timeoutMs?: number } = {},
  ) {
    this.#bases = (typeof base === "string" ? [base] : base).map((b) => new URL(b));
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: options.sockets ?? 64 });
    this.#timeoutMs = options.timeoutMs ?? 60_000;
  }

  request(method: string, path: string, body?: unknown): Promise<Reply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = {};
    if (payload !== undefined) {
      headers["content-type"] = "application/json";
      headers["content-length"] = Buffer.byteLength(payload);
    }
    const target = this.#bases[this.#next];
    this.#next = (this.#next + 1) % this.#bases.length;
    return new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: target.hostname,
          port: target.port,
          method,
          path,
          headers,
          agent: this.#agent,
          timeout: this.#timeoutMs,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
          );
          res.on("error", reject);
        },
      );
      req.on("timeout", () => req.destroy(new Error(`${method} ${path} timed out`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** Submits one run; answers its id. */
  async submit(workflow: string, title: string): Promise<string> {
    const reply = await this.request("POST", `/api/workflows/${workflow}/runs`, { title });
    if (reply.status !== 201) throw new Error(`submit ${workflow}: ${reply.status} ${reply.text}`);
    return JSON.parse(reply.text).run_id;
  }

  /** Submits runs in one batch request (all or nothing); answers their ids in order. */
  async submitBatch(workflow: string, titles: string[]): Promise<string[]> {
    const body = titles.map((title) => ({ title }));
    const reply = await this.request("POST", `/api/workflows/${workflow}/runs/batch`, body);
    if (reply.status !== 201) throw new Error(`batch ${workflow}: ${reply.status} ${reply.text}`);
    return (JSON.parse(reply.text) as Array<{ run_id: string }>).map((c) => c.run_id);
  }

  close(): void {
    this.#agent.destroy();
  }
}
