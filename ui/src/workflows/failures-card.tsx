// A workflow's failed attempts grouped by message (GET /api/workflows/{name}/failures), each
// group linking to its latest attempt.
import { enc, get } from "../api/client.ts";
import type { FailureGroup } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { TimeAgo } from "../components/time.tsx";
import { useQuery } from "../live/query-cache.ts";
import { Link } from "../router.tsx";

export function FailuresCard({ name }: { name: string }) {
  const failures = useQuery(`workflow/${name}/failures`, () =>
    get<FailureGroup[]>(`/api/workflows/${enc(name)}/failures`),
  );
  const groups = failures.data ?? [];
  return (
    <section className="card failures-card" aria-label="Failures">
      <h3 className="card-title">Failures</h3>
      {failures.error && <ErrorNote error={failures.error} compact />}
      {failures.data && groups.length === 0 && <p className="muted small">No failed attempts.</p>}
      <ul className="failure-groups">
        {groups.map((g) => (
          <li key={g.message} className="failure-group" data-count={g.count}>
            <div className="failure-message mono">{g.message}</div>
            <div className="muted small">
              {g.count}× · latest{" "}
              <Link to={`/runs/${enc(g.last_run_id)}?task=${g.last_task_id}`}>
                task #{g.last_task_id}
              </Link>{" "}
              <TimeAgo iso={g.last_at} />
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
