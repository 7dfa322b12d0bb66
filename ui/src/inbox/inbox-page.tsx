// The inbox: every request a person can still act on, across runs, oldest first, answered in
// place. It updates live: a new request appears, an answered one leaves.
import { enc, get } from "../api/client.ts";
import type { RequestView, RunDetail } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { useQuery } from "../live/query-cache.ts";
import { RequestCard } from "./request-card.tsx";

export function InboxPage() {
  const inbox = useQuery("inbox", () => get<RequestView[]>("/api/requests?pending=true"));
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
          <TitledCard key={r.id} request={r} />
        ))}
      </div>
    </div>
  );
}

/**
 * A card with its run's title, read run by run (a request carries only its run's id): the
 * inbox never reads the whole run list, which may hold thousands. The run's entry is the one
 * its page shows, so both stay fresh from the same events.
 */
function TitledCard({ request }: { request: RequestView }) {
  const run = useQuery(`run/${request.run_id}`, () =>
    get<RunDetail>(`/api/runs/${enc(request.run_id)}`),
  );
  return <RequestCard request={request} runTitle={run.data?.title} />;
}
