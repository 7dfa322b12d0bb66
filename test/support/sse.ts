// The suite's one server-sent events reader. It reads a stream the way a browser's EventSource
// would (`id:`, `event:`, `data:` fields, comments, frames cut at a blank line), keeps each
// frame's raw text so a test can check the framing itself, and parses the JSON envelopes. It
// uses node:http, so that a test can also stop reading (`response().pause()`) to play a slow
// client. Every wait is bounded; `close` ends the request.
import http from "node:http";
import { eventually } from "./wait.ts";

export interface SseFrame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
  /** The frame as sent, without its closing blank line (not enumerable). */
  readonly raw: string;
}

/** An event envelope, as a frame's `data:` JSON carries it. */
export interface Envelope {
  id?: number | null;
  name: string;
  created: string;
  data: Record<string, any>;
  run_id?: string | null;
  task_id?: number | null;
}

export function parseFrames(text: string): SseFrame[] {
  return text
    .replace(/\r\n/g, "\n")
    .split("\n\n")
    .filter((block) => block !== "")
    .map((raw) => {
      // Not enumerable: a test compares a frame's fields with toEqual, the raw text apart.
      const frame = Object.defineProperty({}, "raw", { value: raw }) as SseFrame;
      for (const line of raw.split("\n")) {
        if (line.startsWith(":")) {
          frame.comment = line.slice(1).trim();
          continue;
        }
        const at = line.indexOf(":");
        const field = at < 0 ? line : line.slice(0, at);
        const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
        if (field === "id" || field === "event") frame[field] = value;
        if (field === "data") {
          frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
        }
      }
      return frame;
    });
}

/** The envelope a frame carries, when its data is JSON with a `name`. */
export function envelopeOf(frame: SseFrame): Envelope | undefined {
  if (frame.data === undefined) return undefined;
  try {
    const parsed = JSON.parse(frame.data);
    return parsed && typeof parsed.name === "string" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** An open event stream. Frames still arriving are read as they come. */
export class SseClient {
  text = "";
  status = 0;
  headers: http.IncomingHttpHeaders = {};
  readonly #res: Promise<http.IncomingMessage>;
  readonly #req: http.ClientRequest;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.#req = http.get(url, { headers });
    this.#res = new Promise((resolve, reject) => {
      this.#req.once("response", (res) => {
        this.status = res.statusCode ?? 0;
        this.headers = res.headers;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          this.text += chunk;
        });
        // A stream the test closed ends with an aborted socket: not an error of the test.
        res.on("error", () => undefined);
        resolve(res);
      });
      this.#req.once("error", reject);
    });
  }

  response(): Promise<http.IncomingMessage> {
    return this.#res;
  }

  get contentType(): string | undefined {
    return this.headers["content-type"];
  }

  /** The complete frames so far that carry a field (pings and other comments left out). */
  frames(): SseFrame[] {
    const complete = this.text.slice(0, this.text.lastIndexOf("\n\n") + 2);
    return parseFrames(complete).filter((f) => f.comment === undefined);
  }

  /** The envelopes of the frames so far. */
  events(): Envelope[] {
    return this.frames().flatMap((f) => envelopeOf(f) ?? []);
  }

  /** Waits (bounded) until an envelope passes `test`, and answers it. */
  waitFor(what: string, test: (e: Envelope) => boolean, ms?: number): Promise<Envelope> {
    return eventually(() => this.events().find(test), what, ms);
  }

  /** Waits (bounded) until the frames so far pass `enough`, and answers them. */
  until(what: string, enough: (frames: SseFrame[]) => boolean, ms?: number): Promise<SseFrame[]> {
    return eventually(() => (enough(this.frames()) ? this.frames() : undefined), what, ms);
  }

  close(): void {
    this.#req.destroy();
  }
}

/** Opens a stream and resolves once its response head arrived (any status). */
export async function openStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<SseClient> {
  const client = new SseClient(url, headers);
  await client.response();
  return client;
}
