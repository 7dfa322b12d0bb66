// Reads an event stream the way a browser's EventSource would, with node:http so that a test
// can also stop reading (pause) to play a slow client.
import http from "node:http";

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

export function parseFrames(text: string): SseFrame[] {
  return text
    .split("\n\n")
    .filter((block) => block !== "")
    .map((block) => {
      const frame: SseFrame = {};
      for (const line of block.split("\n")) {
        if (line.startsWith(":")) frame.comment = line.slice(1).trim();
        const m = /^(id|event|data): ?(.*)$/.exec(line);
        if (m) frame[m[1] as "id" | "event" | "data"] = m[2];
      }
      return frame;
    });
}

/** An open event stream read with node:http, so a test can also stop reading (pause). */
export class SseClient {
  text = "";
  status = 0;
  readonly #res: Promise<http.IncomingMessage>;
  readonly #req: http.ClientRequest;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.#req = http.get(url, { headers });
    this.#res = new Promise((resolve, reject) => {
      this.#req.once("response", (res) => {
        this.status = res.statusCode ?? 0;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          this.text += chunk;
        });
        resolve(res);
      });
      this.#req.once("error", reject);
    });
  }

  response(): Promise<http.IncomingMessage> {
    return this.#res;
  }

  frames(): SseFrame[] {
    return parseFrames(this.text).filter((f) => f.comment === undefined);
  }

  close(): void {
    this.#req.destroy();
  }
}
