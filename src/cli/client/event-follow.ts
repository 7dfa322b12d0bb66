// Following GET /api/events: open the stream, hand each message over, and when the connection
// drops, reconnect with Last-Event-ID after a bounded backoff so no stored event is missed.
// Opening is bounded by a timeout and reading by the server's 15 s heartbeat: a stream silent
// for three heartbeats is treated as dropped. SSE framing is parsed by hand (sse-parser.ts).
import type { ApiClient } from "./api-client.ts";
import { ApiRefusal, Unreachable } from "./client-errors.ts";
import { type SseMessage, SseParser } from "./sse-parser.ts";
import { openStream } from "./stream-request.ts";

export interface StreamQuery {
  run?: string;
  names?: string;
  after?: number;
}

/** "stop" ends the follow; anything else keeps reading. */
export type MessageHandler = (
  message: SseMessage,
) => "stop" | undefined | Promise<"stop" | undefined>;

export interface FollowOptions {
  query: StreamQuery;
  /** Aborting it ends the follow quietly (SIGINT). */
  signal: AbortSignal;
  onMessage: MessageHandler;
  /** Connection news for stderr: dropped, reconnecting, connected again. */
  onNotice(line: string): void;
  idleMs?: number;
  openMs?: number;
}

const BACKOFF_MS = [500, 1000, 2000, 4000, 8000, 15_000];

export class EventFollower {
  readonly #client: ApiClient;
  readonly #options: FollowOptions;
  #lastId: string | undefined;

  constructor(client: ApiClient, options: FollowOptions) {
    this.#client = client;
    this.#options = options;
  }

  /** Resolves "stopped" when a handler stopped it, "interrupted" when the signal did. */
  async follow(): Promise<"stopped" | "interrupted"> {
    const { signal, onNotice } = this.#options;
    let failures = 0;
    let everOpened = false;
    while (!signal.aborted) {
      let outcome: "stopped" | "dropped";
      try {
        outcome = await this.#session(() => {
          if (everOpened) onNotice("connected again");
          everOpened = true;
          failures = 0;
        });
      } catch (error) {
        if (signal.aborted) break;
        // A refusal (401 after a token rotation, 404) will not go away by retrying.
        if (error instanceof ApiRefusal && error.status < 500) throw error;
        if (!everOpened) throw error instanceof ApiRefusal ? error : this.#unreachable(error);
        outcome = "dropped";
      }
      if (outcome === "stopped") return "stopped";
      if (signal.aborted) break;
      const delay = BACKOFF_MS[Math.min(failures++, BACKOFF_MS.length - 1)];
      onNotice(`connection lost; reconnecting in ${delay / 1000} s`);
      await sleep(delay, signal);
    }
    return "interrupted";
  }

  /** One connection, from opening to its end. */
  async #session(opened: () => void): Promise<"stopped" | "dropped"> {
    const { signal, idleMs = 45_000, openMs = 30_000 } = this.#options;
    const where = this.#client.settings.baseUrl;
    const stream = await openStream(this.#url(), this.#headers(), { openMs, where, signal });
    const close = () => stream.close();
    signal.addEventListener("abort", close, { once: true });
    let timer = setTimeout(close, idleMs);
    try {
      opened();
      const parser = new SseParser();
      stream.res.setEncoding("utf8");
      for await (const chunk of stream.res) {
        clearTimeout(timer);
        timer = setTimeout(close, idleMs);
        if ((await this.#deliver(parser.push(chunk as string))) === "stop") return "stopped";
      }
      return "dropped";
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", close);
      stream.close();
    }
  }

  async #deliver(messages: SseMessage[]): Promise<"stop" | undefined> {
    for (const message of messages) {
      if (message.id !== undefined) this.#lastId = message.id;
      if ((await this.#options.onMessage(message)) === "stop") return "stop";
    }
    return undefined;
  }

  /** `after` only until an event has been seen; from then on Last-Event-ID says where we are. */
  #url(): string {
    const { run, names, after } = this.#options.query;
    const cursor = this.#lastId === undefined ? after : undefined;
    return this.#client.url("/api/events", { run, names, after: cursor });
  }

  #headers(): Record<string, string> {
    const extra: Record<string, string> = { accept: "text/event-stream" };
    if (this.#lastId !== undefined) extra["last-event-id"] = this.#lastId;
    return this.#client.headers(extra);
  }

  #unreachable(error: unknown): Unreachable {
    if (error instanceof Unreachable) return error;
    const why = error instanceof Error ? error.message : String(error);
    return new Unreachable(
      `cannot open the event stream at ${this.#client.settings.baseUrl} (${why})`,
    );
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
