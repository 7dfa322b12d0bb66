// Stored events of the run, oldest first, paged with the `after` cursor. Once the history is
// read to its end, new stored events from the live stream are appended as they arrive.
import { useCallback, useEffect, useRef, useState } from "react";
import { enc, get } from "../api/client.ts";
import type { EventEnvelope } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { JsonView } from "../components/json-view.tsx";
import { formatTime } from "../components/time.tsx";
import { onStream } from "../live/event-stream.ts";

const PAGE = 100;

function family(name: string): string {
  return name.split(".")[0];
}

export function EventsList({ runId }: { runId: string }) {
  const [events, setEvents] = useState<EventEnvelope[]>([]);
  const [complete, setComplete] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(false);
  const state = useRef({ events, complete });
  state.current = { events, complete };

  const load = useCallback(
    async (reset: boolean) => {
      setLoading(true);
      try {
        const after = reset ? 0 : (state.current.events.at(-1)?.id ?? 0);
        const page = await get<EventEnvelope[]>(
          `/api/runs/${enc(runId)}/events?after=${after}&limit=${PAGE}`,
        );
        setEvents((old) => (reset ? page : [...old, ...page]));
        setComplete(page.length < PAGE);
        setError(null);
      } catch (err) {
        setError(err);
      } finally {
        setLoading(false);
      }
    },
    [runId],
  );

  useEffect(() => {
    void load(true);
    return onStream((signal) => {
      if (signal.type === "resync" || signal.type === "restart") void load(true);
      if (signal.type !== "event") return;
      const e = signal.event;
      const last = state.current.events.at(-1)?.id ?? 0;
      if (e.run_id !== runId || typeof e.id !== "number" || !state.current.complete || e.id <= last)
        return;
      setEvents((old) => [...old, e]);
    });
  }, [load, runId]);

  return (
    <div className="events">
      <ErrorNote error={error} />
      <table className="table events-table">
        <thead>
          <tr>
            <th className="col-id">Id</th>
            <th>Time</th>
            <th>Event</th>
            <th className="col-id">Task</th>
            <th>Data</th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => (
            <tr key={e.id ?? `${e.name}-${e.created}`} data-event={e.name}>
              <td className="col-id num muted">{e.id}</td>
              <td className="nowrap muted">{formatTime(e.created)}</td>
              <td>
                <code className={`ev ev-${family(e.name)}`}>{e.name}</code>
                {typeof e.data.operator === "string" && (
                  <span className="operator"> by {e.data.operator}</span>
                )}
              </td>
              <td className="col-id num muted">{e.task_id ?? ""}</td>
              <td className="col-data">
                <JsonView value={e.data} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="events-foot">
        {complete ? (
          <span className="muted small">
            {events.length} event{events.length === 1 ? "" : "s"} · following live
          </span>
        ) : (
          <button type="button" className="btn" disabled={loading} onClick={() => void load(false)}>
            Load {PAGE} more
          </button>
        )}
      </div>
    </div>
  );
}
