// Schedules: each schedule's workflow, cron and time zone, whether it is enabled, its next fire
// and its last fire with a link to the run it submitted; a toggle enables or disables it.
import { api, enc, get } from "../api/client.ts";
import type { ScheduleOut } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { formatTime } from "../components/time.tsx";
import { useAction } from "../components/use-action.ts";
import { useQuery } from "../live/query-cache.ts";
import { Link } from "../router.tsx";

export function SchedulesPage() {
  const list = useQuery("schedules", () => get<ScheduleOut[]>("/api/schedules"));
  const action = useAction();
  const toggle = async (s: ScheduleOut) => {
    const path = `/api/schedules/${enc(s.name)}`;
    await action.run(() => api<ScheduleOut>("PATCH", path, { enabled: !s.enabled }));
    list.refetch();
  };
  return (
    <div className="page">
      <div className="page-head">
        <div>
          <h1>Schedules</h1>
          <p className="muted">Cron schedules that submit runs, with their next and last fire.</p>
        </div>
      </div>
      {list.error && <ErrorNote error={list.error} />}
      {action.error ? <ErrorNote error={action.error} /> : null}
      <div className="card card-flush">
        <table className="table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Workflow</th>
              <th>Cron</th>
              <th>Enabled</th>
              <th>Next fire</th>
              <th>Last fire</th>
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((s) => (
              <tr key={s.name} data-schedule={s.name}>
                <td className="mono">
                  {s.name}
                  {s.source === "config" && <span className="muted small"> (config)</span>}
                </td>
                <td>
                  <Link to={`/workflows/${s.workflow}`} className="run-link mono">
                    {s.workflow}
                  </Link>
                </td>
                <td>
                  <code>{s.cron}</code> <span className="muted small">{s.timezone}</span>
                </td>
                <td>
                  <label>
                    <input
                      type="checkbox"
                      checked={s.enabled}
                      disabled={action.busy}
                      onChange={() => void toggle(s)}
                      aria-label={`${s.name} enabled`}
                    />
                  </label>
                </td>
                <td className="small">{s.next_fire ? formatTime(s.next_fire) : "—"}</td>
                <td className="small">
                  {s.last_fire ? formatTime(s.last_fire) : "—"}
                  {s.last_run_id && (
                    <>
                      {" "}
                      <Link to={`/runs/${s.last_run_id}`} className="run-link mono">
                        {s.last_run_id}
                      </Link>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.length === 0 && <div className="empty muted">No schedules.</div>}
      </div>
    </div>
  );
}
