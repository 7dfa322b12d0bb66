// The run's stored events, read whole (pages of 1,000, up to 20,000) the first time, then only
// those after the last one read (stored events are only ever appended) each time an event
// touches the run; the attempts' phases are computed from them.
import { useMemo } from "react";
import { enc, get } from "../api/client.ts";
import type { EventEnvelope, TaskView } from "../api/types.ts";
import { useNow } from "../components/time.tsx";
import { useQuery } from "../live/query-cache.ts";
import { runPhases, type TaskPhases } from "./phases.ts";

const PAGE = 1000;
const MOST = 20_000;

/** What was read of each run shown, to read only what came after it. */
const read = new Map<string, EventEnvelope[]>();

async function allEvents(runId: string): Promise<EventEnvelope[]> {
  const out = [...(read.get(runId) ?? [])];
  for (;;) {
    const after = out.at(-1)?.id ?? 0;
    const page = await get<EventEnvelope[]>(
      `/api/runs/${enc(runId)}/events?after=${after}&limit=${PAGE}`,
    );
    out.push(...page);
    if (page.length < PAGE || out.length >= MOST) {
      read.delete(runId);
      read.set(runId, out);
      // The last 20 runs shown are enough.
      for (const old of read.keys()) if (read.size > 20) read.delete(old);
      return out;
    }
  }
}

export function useRunEvents(runId: string | null) {
  return useQuery(runId ? `events/${runId}/all` : null, () => allEvents(runId ?? ""));
}

/** Each attempt's phases (null until the events are read once). */
export function usePhases(runId: string | null, tasks: TaskView[]): Map<number, TaskPhases> | null {
  const events = useRunEvents(runId).data;
  const now = useNow();
  return useMemo(() => {
    if (!events) return null;
    return new Map(runPhases(tasks, events, Math.max(now, Date.now())).map((p) => [p.task.id, p]));
  }, [tasks, events, now]);
}
