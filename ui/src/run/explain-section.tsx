// "Why is this not running?" in the task drawer: the server's reasons for a task that is not
// running (GET /api/tasks/{id}/explain), refetched on the task's events and on demand.
import { get } from "../api/client.ts";
import type { ExplainReason, TaskDetail, TaskExplain } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { formatTime } from "../components/time.tsx";
import { useQuery } from "../live/query-cache.ts";
import { setSearchParam } from "../router.tsx";

const OUTSTANDING = new Set(["ready", "in_progress", "waiting"]);

function Detail({ reason }: { reason: ExplainReason }) {
  switch (reason.code) {
    case "pool_full":
      return reason.holders.length ? (
        <ul className="explain-holders">
          {reason.holders.map((h) => (
            <li key={h.task_id}>
              <button
                type="button"
                className="link-btn mono"
                onClick={() => setSearchParam("task", String(h.task_id))}
              >
                task #{h.task_id}
              </button>{" "}
              <span className="mono">{h.node}</span> of run <span className="mono">{h.run_id}</span>
              {h.since && <span className="muted"> · since {formatTime(h.since)}</span>}
            </li>
          ))}
        </ul>
      ) : null;
    case "waiting_on_person":
    case "running":
    case "run_paused":
      return reason.since ? (
        <div className="muted small">since {formatTime(reason.since)}</div>
      ) : null;
    default:
      return null;
  }
}

/** Shown for a task not running; a live running task has nothing to explain. */
export function ExplainSection({ task }: { task: TaskDetail }) {
  const outstanding = OUTSTANDING.has(task.status);
  const why = useQuery(outstanding ? `task/${task.id}/explain` : null, () =>
    get<TaskExplain>(`/api/tasks/${task.id}/explain`),
  );
  if (!outstanding) return null;
  const reasons = why.data?.reasons ?? [];
  if (reasons.length === 1 && reasons[0].code === "running" && reasons[0].live) return null;
  return (
    <section className="explain" aria-label="Why is this not running?">
      <div className="explain-head">
        <h3>Why is this not running?</h3>
        <button type="button" className="btn" disabled={why.loading} onClick={why.refetch}>
          Refresh
        </button>
      </div>
      {why.error && <ErrorNote error={why.error} compact />}
      <ul className="explain-reasons">
        {reasons.map((r) => (
          <li key={r.code} data-reason={r.code}>
            <span className="explain-code mono">{r.code}</span> {r.message}
            <Detail reason={r} />
          </li>
        ))}
      </ul>
    </section>
  );
}
