// The inbox: every request a person can still act on, across runs, oldest first, answered in
// place. It updates live: a new request appears, an answered one leaves.
import { get } from "../api/client.ts";
import type { RequestView, RunSummary } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { useQuery } from "../live/query-cache.ts";
import { RequestCard } from "./request-card.tsx";

export function InboxPage() {
  const inbox = useQuery("inbox", () => get<RequestView[]>("/api/requests?pending=true"));
  const runs = useQuery("runs", () => get<RunSummary[]>("/api/runs"));
  const titles = new Map((runs.data ?? []).map((r) => [r.id, r.title]));
  const list = inbox.data ?? [];
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <h1>Inbox</h1>
          <p className="muted">Questions, forms and permission requests waiting on a person.</p>
        </div>
      </div>
      {inbox.error && <ErrorNote error={inbox.error} />}
      {inbox.data && list.length === 0 && (
        <div className="card empty">
          <h2>All clear</h2>
          <p className="muted">No run is waiting on you.</p>
        </div>
      )}
      <div className="request-list">
        {list.map((r) => (
          <RequestCard key={r.id} request={r} runTitle={titles.get(r.run_id)} />
        ))}
      </div>
    </div>
  );
}
