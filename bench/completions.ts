// Submitting runs over HTTP and observing their ends on the event stream, as a user would.
// A run may end before its POST has answered (the stream can beat the response), so ends are
// recorded by run id as they arrive and matched against the submitted ids afterwards.
import type { HttpClient } from "./http-client.ts";
import { SseListener } from "./sse-listener.ts";

/** Run ends as they arrive (by run id), and a bounded wait for a set of them. */
export class RunEnds {
  /** run id -> when its end arrived (performance.now). */
  readonly ended = new Map<string, number>();
  readonly failed = new Set<string>();
  #pending: Set<string> | null = null;
  #wake: (() => void) | null = null;

  record(id: string, at: number, failed = false): void {
    if (!this.ended.has(id)) this.ended.set(id, at);
    if (failed) this.failed.add(id);
    if (this.#pending?.delete(id) && this.#pending.size === 0) this.#wake?.();
  }

  /** Resolves when every id has ended; rejects after `ms` naming how many had not. */
  waitFor(ids: Iterable<string>, ms: number): Promise<void> {
    const pending = new Set([...ids].filter((id) => !this.ended.has(id)));
    if (pending.size === 0) return Promise.resolve();
    this.#pending = pending;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#wake = null;
        reject(new Error(`${pending.size} run(s) had not ended after ${ms} ms`));
      }, ms);
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = null;
        resolve();
      };
    });
  }
}

/** Run ends read from the servers' event streams (`run.completed`, `run.failed`). */
export class Completions extends RunEnds {
  readonly #listeners: SseListener[] = [];

  /** Listens on every server given (BENCH_SERVERS: each one's stream carries its own ends). */
  static async open(bases: string | readonly string[]): Promise<Completions> {
    let self: Completions | null = null;
    const early: Array<[string, number, boolean]> = [];
    const listeners: SseListener[] = [];
    for (const base of typeof bases === "string" ? [bases] : bases) {
      listeners.push(
        await Completions.#listen(base, (id, at, failed) => {
          if (self) self.record(id, at, failed);
          else early.push([id, at, failed]);
        }),
      );
    }
    self = new Completions();
    self.#listeners.push(...listeners);
    for (const [id, at, failed] of early) self.record(id, at, failed);
    return self;
  }

  static #listen(base: string, record: (id: string, at: number, failed: boolean) => void) {
    return SseListener.open(base, "/api/events?names=run.completed,run.failed", (event, at) => {
      const id = event.envelope.run_id;
      if (!id) return;
      record(id, at, event.name === "run.failed");
    });
  }

  get resyncs(): number {
    return this.#listeners.reduce((n, l) => n + l.resyncs, 0);
  }

  close(): void {
    for (const listener of this.#listeners) listener.close();
  }
}

export interface Submitted {
  /** run id -> when its POST was sent (performance.now). */
  sentAt: Map<string, number>;
  firstSentAt: number;
  lastAnsweredAt: number;
}

/** Submits `count` runs with at most `inFlight` requests outstanding. */
export async function submitMany(
  client: HttpClient,
  workflow: string,
  count: number,
  inFlight: number,
  title: (i: number) => string,
): Promise<Submitted> {
  const sentAt = new Map<string, number>();
  const firstSentAt = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const sent = performance.now();
      sentAt.set(await client.submit(workflow, title(i)), sent);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, count) }, worker));
  return { sentAt, firstSentAt, lastAnsweredAt: performance.now() };
}

/**
 * Submits `count` runs in batch requests of at most `size`, one after the other (each batch is
 * one transaction on the server). Every run of a batch counts as sent when its request was.
 */
export async function submitBatches(
  client: HttpClient,
  workflow: string,
  count: number,
  size: number,
  title: (i: number) => string,
): Promise<Submitted> {
  const sentAt = new Map<string, number>();
  const firstSentAt = performance.now();
  for (let start = 0; start < count; start += size) {
    const titles = Array.from({ length: Math.min(size, count - start) }, (_, k) =>
      title(start + k),
    );
    const sent = performance.now();
    for (const id of await client.submitBatch(workflow, titles)) sentAt.set(id, sent);
  }
  return { sentAt, firstSentAt, lastAnsweredAt: performance.now() };
}

/** When the last of `ids` ended. */
export function lastEnd(completions: Completions, ids: Iterable<string>): number {
  let last = 0;
  for (const id of ids) last = Math.max(last, completions.ended.get(id) ?? 0);
  return last;
}

/** How many of `ids` had ended by `at` (performance.now). */
export function endedBy(completions: Completions, ids: Iterable<string>, at: number): number {
  let n = 0;
  for (const id of ids) if ((completions.ended.get(id) ?? Number.POSITIVE_INFINITY) <= at) n++;
  return n;
}
