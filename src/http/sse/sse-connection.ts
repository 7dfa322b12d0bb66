// One open event stream. Live writes never wait: while the socket is backed up, frames collect
// in a queue bounded by bytes; when the queue would overflow, the backlog is dropped and, once
// the socket drains, the client gets a `resync` frame telling it to refetch. So a slow reader
// costs a bounded queue and can never hold up the engine that publishes. The queue holds the
// frame strings every subscriber shares (built once per event), so its bound is about how far
// a reader may fall behind more than about memory per reader.
//
// A replay is different: its frames are already in memory (at most the replay cap of them), so
// it is written at the pace the socket drains instead of through the queue, and a reader that
// keeps reading gets all of it whatever its size. A reader that stops reading mid-replay for
// `stallMs` has its stream closed; it reconnects with its last id.
import type { ServerResponse } from "node:http";
import { PING_FRAME, RESYNC_FRAME } from "./frames.ts";

export interface SseLimits {
  /** Interval of `: ping` comment lines that keep proxies from closing an idle stream. */
  heartbeatMs: number;
  /** Most bytes of live frames held for a reader whose socket is backed up. */
  queueBytes: number;
  /** Longest wait for the socket to drain during a replay before the stream is closed. */
  stallMs: number;
}

export const DEFAULT_SSE_LIMITS: SseLimits = {
  heartbeatMs: 15_000,
  queueBytes: 8 << 20,
  stallMs: 60_000,
};

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
  #drainWaiters: Array<() => void> = [];

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

  /**
   * Writes `frames` in order, waiting for the socket to drain whenever it is backed up, so none
   * is dropped. Answers false when the stream closed (or stalled and was closed) before the end.
   */
  async sendPaced(frames: readonly string[]): Promise<boolean> {
    for (const frame of frames) {
      while (this.#blocked && !this.closed) {
        if (!(await this.#drained())) {
          this.#raw.destroy();
          return false;
        }
      }
      if (this.closed) return false;
      this.send(frame);
    }
    return !this.closed;
  }

  /** Resolves true once the socket drained, false after `stallMs` without it. */
  #drained(): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), this.#limits.stallMs);
      this.#drainWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
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

  // Frame by frame rather than joined: a joined backlog would be a private copy per reader.
  // Frames sent after the socket backs up again go back into the (now empty) queue, in order.
  readonly #flush = (): void => {
    const queue = this.#queue;
    const dropped = this.#dropped;
    this.#queue = [];
    this.#queued = 0;
    this.#dropped = false;
    this.#blocked = false;
    if (dropped) this.send(RESYNC_FRAME);
    for (const frame of queue) this.send(frame);
    this.#wakeWaiters();
  };

  #wakeWaiters(): void {
    const waiters = this.#drainWaiters;
    this.#drainWaiters = [];
    for (const wake of waiters) wake();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#heartbeat);
    this.#raw.off("drain", this.#flush);
    this.#wakeWaiters();
    if (!this.#raw.destroyed) this.#raw.end();
  }
}
