// Every request the run opened: pending ones answerable here, answered and stale ones as record.
import { enc, get } from "../api/client.ts";
import type { RequestView } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { RequestCard } from "../inbox/request-card.tsx";
import { useQuery } from "../live/query-cache.ts";

export function RequestsTab({ runId }: { runId: string }) {
  const list = useQuery(`requests/${runId}`, () =>
    get<RequestView[]>(`/api/runs/${enc(runId)}/requests`),
  );
  if (list.error) return <ErrorNote error={list.error} />;
  if (list.data && !list.data.length)
    return <div className="empty muted">This run has asked nothing.</div>;
  return (
    <div className="request-list">
      {(list.data ?? []).map((r) => (
        <RequestCard key={r.id} request={r} showRun={false} />
      ))}
    </div>
  );
}
