// Delivery of one event to many subscribers of `GET /api/events` (no filter: each subscriber
// receives every event, as a dashboard does). The measured event is a run's `run.created`:
// latency is from sending its POST to the frame arriving at each subscriber (what a user
// watching sees), and, as a second figure, from the event's commit clock (`created`, the
// transaction's instant, ms resolution) to arrival.
import { percentile } from "../figures.ts";
import type { BenchOptions } from "../options.ts";
import type { Session } from "../session.ts";
import { SseListener } from "../sse-listener.ts";

const OPEN_BATCH = 50;

async function until(probe: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = performance.now() + ms;
  while (!probe()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export interface FanOutResult {
  fromSubmit: number[];
  fromCommit: { p50: number | null; p99: number | null };
  resyncs: number;
  subscribers: number;
  events: number;
}

async function openAll(
  url: string,
  count: number,
  onCreated: (id: string, at: number, created: string) => void,
) {
  const listeners: SseListener[] = [];
  try {
    for (let i = 0; i < count; i += OPEN_BATCH) {
      const batch = Array.from({ length: Math.min(OPEN_BATCH, count - i) }, () =>
        SseListener.open(url, "/api/events", (event, at) => {
          if (event.name === "run.created" && event.envelope.run_id) {
            onCreated(event.envelope.run_id, at, event.envelope.created);
          }
        }),
      );
      listeners.push(...(await Promise.all(batch)));
    }
    return listeners;
  } catch (err) {
    for (const l of listeners) l.close();
    throw err;
  }
}

export async function fanOutLatency(s: Session, options: BenchOptions): Promise<FanOutResult> {
  const { subscribers, events } = options.w5;
  const arrivals = new Map<string, number[]>();
  const fromCommit: number[] = [];
  const listeners = await openAll(s.server.url, subscribers, (id, at, created) => {
    const list = arrivals.get(id) ?? [];
    list.push(at);
    arrivals.set(id, list);
    fromCommit.push(performance.timeOrigin + at - Date.parse(created));
  });
  const fromSubmit: number[] = [];
  try {
    for (let e = 0; e < events; e++) {
      const sent = performance.now();
      const id = await s.client.submit("chain3", "fan-out");
      await until(() => (arrivals.get(id)?.length ?? 0) >= subscribers, 30_000, "fan-out");
      for (const at of arrivals.get(id)!) fromSubmit.push(at - sent);
      // Let the run finish so its later events do not overlap the next measured one.
      await s.completions.waitFor([id], 30_000);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    for (const l of listeners) l.close();
  }
  return {
    fromSubmit,
    fromCommit: { p50: percentile(fromCommit, 50), p99: percentile(fromCommit, 99) },
    resyncs: listeners.reduce((n, l) => n + l.resyncs, 0),
    subscribers,
    events,
  };
}
