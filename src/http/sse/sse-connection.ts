// One open event stream. Writes never wait: while the socket is backed up, frames collect in a
// queue bounded by bytes; when the queue would overflow, the backlog is dropped and, once the
// socket drains, the client gets a `resync` frame telling it to refetch. So a slow reader costs
// at most `queueBytes` of memory and can never hold up the engine that publishes.
import type { ServerResponse } from "node:http";
import { PING_FRAME, RESYNC_FRAME } from "./frames.ts";

export interface SseLimits {
  /** Interval of `: ping` comment lines that keep proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Most bytes held for a reader that is not keeping up. */
  queueBytes: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = { heartbeatMs: 15_000, queueBytes: 1 << 20 };

export class SseConnection {
  readonly #raw: ServerResponse;
  readonly #limits: SseLimits;
  #queue: string[] = [];
  #queued = 0;
  #blocked = false;
  #dropped = false;
  #closed = false;
  #corked = false;
  #heartbeat: NodeJS.Timeout | undefined;

  constructor(raw: ServerResponse, limits: SseLimits) {
    this.#raw = raw;
    this.#limits = limits;
  }

  get closed(): boolean {
    return this.#closed || this.#raw.destroyed;
  }

  /** Starts the response and the heartbeat. */
  open(): void {
    this.#raw.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    });
    this.#raw.flushHeaders();
    this.#heartbeat = setInterval(() => {
      if (!this.#blocked) this.send(PING_FRAME);
    }, this.#limits.heartbeatMs);
    this.#heartbeat.unref();
  }

  send(frame: string): void {
    if (this.closed) return;
    if (this.#blocked) {
      this.#enqueue(frame);
      return;
    }
    this.#cork();
    if (!this.#raw.write(frame)) {
      this.#blocked = true;
      this.#raw.once("drain", this.#flush);
    }
  }

  // A commit publishes its events one after another in the same tick: corking until the tick
  // ends turns them into one socket write per stream instead of one per event.
  #cork(): void {
    if (this.#corked) return;
    this.#corked = true;
    this.#raw.cork();
    process.nextTick(this.#uncork);
  }

  readonly #uncork = (): void => {
    this.#corked = false;
    if (!this.#raw.destroyed) this.#raw.uncork();
  };

  #enqueue(frame: string): void {
    if (this.#dropped) return; // Already owed a resync: nothing older is worth keeping.
    if (this.#queued + frame.length > this.#limits.queueBytes) {
      this.#queue = [];
      this.#queued = 0;
      this.#dropped = true;
      return;
    }
    this.#queue.push(frame);
    this.#queued += frame.length;
  }

  readonly #flush = (): void => {
    const backlog = (this.#dropped ? RESYNC_FRAME : "") + this.#queue.join("");
    this.#queue = [];
    this.#queued = 0;
    this.#dropped = false;
    this.#blocked = false;
    if (backlog) this.send(backlog);
  };

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#raw.off("drain", this.#flush);
    if (!this.#raw.destroyed) this.#raw.end();
  }
}
