// The inbox: every request a person can still act on, across runs, oldest first, answered in
// place. It updates live: a new request appears, an answered one leaves, except one the
// operator was typing an answer into: that card stays, saying who answered it elsewhere (another
// tab, the CLI) and when, with the unsent text kept to copy, until it is dismissed.
import { useEffect, useRef, useState } from "react";
import { enc, get } from "../api/client.ts";
import type { RequestView, RunDetail } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { onStream } from "../live/event-stream.ts";
import { useQuery } from "../live/query-cache.ts";
import { draftOf, dropDraft, isSending } from "./drafts.ts";
import { type Elsewhere, RequestCard } from "./request-card.tsx";

interface Kept {
  request: RequestView;
  draft: string;
  /** When it was answered (its `request.answered` event), else when this page noticed. */
  at: string;
}

/** The moment each request was answered, from the stream, for the cards kept. */
function useAnsweredAt() {
  const at = useRef(new Map<number, string>());
  useEffect(
    () =>
      onStream((signal) => {
        if (signal.type !== "event" || signal.event.name !== "request.answered") return;
        const id = signal.event.data.request_id;
        if (typeof id === "number") at.current.set(id, signal.event.created);
      }),
    [],
  );
  return at;
}

export function InboxPage() {
  const inbox = useQuery("inbox", () => get<RequestView[]>("/api/requests?pending=true"));
  const answeredAt = useAnsweredAt();
  const shown = useRef(new Map<number, RequestView>());
  const [kept, setKept] = useState<Kept[]>([]);
  useEffect(() => {
    const data = inbox.data;
    if (!data) return;
    const pending = new Set(data.map((r) => r.id));
    for (const [id, old] of shown.current) {
      const draft = draftOf(id);
      if (pending.has(id) || !draft || isSending(id)) continue;
      const at = answeredAt.current.get(id) ?? new Date().toISOString();
      setKept((list) =>
        list.some((k) => k.request.id === id) ? list : [...list, { request: old, draft, at }],
      );
      // Who answered, and what: the request as it is now.
      void get<RequestView>(`/api/requests/${id}`)
        .then((fresh) =>
          setKept((list) =>
            list.map((k) =>
              k.request.id === id
                ? { ...k, request: fresh, at: answeredAt.current.get(id) ?? k.at }
                : k,
            ),
          ),
        )
        .catch(() => {});
    }
    shown.current = new Map(data.map((r) => [r.id, r]));
  }, [inbox.data, answeredAt]);
  const dismiss = (id: number) => {
    dropDraft(id);
    setKept((list) => list.filter((k) => k.request.id !== id));
  };
  const list = inbox.data ?? [];
  const cards = [
    ...list.map((r) => ({ request: r, elsewhere: undefined as Elsewhere | undefined })),
    ...kept
      .filter((k) => !list.some((r) => r.id === k.request.id))
      .map((k) => ({
        request: k.request,
        elsewhere: { at: k.at, draft: k.draft, onDismiss: () => dismiss(k.request.id) },
      })),
  ].sort((a, b) => Date.parse(a.request.created) - Date.parse(b.request.created));
  return (
    <div className="page page-narrow">
      <div className="page-head">
        <div>
          <h1>Inbox</h1>
          <p className="muted">Questions, forms and permission requests waiting on a person.</p>
        </div>
      </div>
      {inbox.error && <ErrorNote error={inbox.error} />}
      {inbox.data && cards.length === 0 && (
        <div className="card empty">
          <h2>All clear</h2>
          <p className="muted">No run is waiting on you.</p>
        </div>
      )}
      <div className="request-list">
        {cards.map((c) => (
          <TitledCard key={c.request.id} request={c.request} elsewhere={c.elsewhere} />
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
function TitledCard({ request, elsewhere }: { request: RequestView; elsewhere?: Elsewhere }) {
  const run = useQuery(`run/${request.run_id}`, () =>
    get<RunDetail>(`/api/runs/${enc(request.run_id)}`),
  );
  return <RequestCard request={request} runTitle={run.data?.title} elsewhere={elsewhere} />;
}
