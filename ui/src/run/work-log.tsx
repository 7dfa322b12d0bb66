// The work log: engine, agent and operator entries rendered as (sanitized) markdown, with a
// box to write an operator note. Ctrl/⌘+Enter sends.
import { type FormEvent, useState } from "react";
import { enc, get, post } from "../api/client.ts";
import type { LogEntry } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { Markdown } from "../components/markdown.tsx";
import { formatTime } from "../components/time.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate, useQuery } from "../live/query-cache.ts";

function Entry({ entry }: { entry: LogEntry }) {
  return (
    <li
      className={`log-entry log-${entry.author} ${entry.kind ? `log-kind-${entry.kind}` : ""}`}
      data-log-id={entry.id}
    >
      <div className="log-meta">
        <span className={`author author-${entry.author}`}>{entry.author}</span>
        {entry.operator && <span className="operator">by {entry.operator}</span>}
        <code className="chip chip-node">{entry.node}</code>
        {entry.kind && <span className={`chip kind-${entry.kind}`}>{entry.kind}</span>}
        {entry.task_id ? <span className="muted mono">#{entry.task_id}</span> : null}
        <time className="muted log-time" dateTime={entry.created}>
          {formatTime(entry.created)}
        </time>
      </div>
      <Markdown text={entry.text} className="log-text" />
    </li>
  );
}

export function WorkLog({ runId }: { runId: string }) {
  const log = useQuery(`log/${runId}`, () => get<LogEntry[]>(`/api/runs/${enc(runId)}/log`));
  const [text, setText] = useState("");
  const { busy, error, run } = useAction();
  const count = log.data?.length ?? 0;
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim()) return;
    const ok = await run(() => post(`/api/runs/${enc(runId)}/log`, { text }), "Note added");
    if (ok) {
      setText("");
      invalidate([`log/${runId}`]);
    }
  };
  return (
    <div className="worklog">
      {log.error && <ErrorNote error={log.error} />}
      {count === 0 && log.data && <div className="empty muted">Nothing logged yet.</div>}
      <ol className="log-list">
        {(log.data ?? []).map((entry) => (
          <Entry key={entry.id} entry={entry} />
        ))}
      </ol>
      <form className="note-box" onSubmit={submit}>
        <textarea
          name="note"
          rows={3}
          placeholder="Write an operator note (markdown)…"
          aria-label="Operator note"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) void submit();
          }}
        />
        <div className="note-actions">
          <span className="muted small">Markdown · Ctrl+Enter to send</span>
          <button type="submit" className="btn btn-primary" disabled={busy || !text.trim()}>
            Add note
          </button>
        </div>
        <ErrorNote error={error} />
      </form>
    </div>
  );
}
