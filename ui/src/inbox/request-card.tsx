// One request for human input: who asked, the prompt (untrusted: sanitized markdown), a
// permission request's tool call, and either the answer controls or the recorded answer.
import type { RequestView } from "../api/types.ts";
import { CopyButton } from "../components/copy-button.tsx";
import { JsonView } from "../components/json-view.tsx";
import { Markdown } from "../components/markdown.tsx";
import { formatTime, TimeAgo } from "../components/time.tsx";
import { Link } from "../router.tsx";
import { AnswerControls } from "./answer-controls.tsx";

function ToolCall({ call }: { call: Record<string, unknown> }) {
  const title = typeof call.title === "string" ? call.title : null;
  const kind = typeof call.kind === "string" ? call.kind : null;
  return (
    <div className="tool-call">
      <div className="tool-call-head">
        <span className="chunk-label">tool call</span>
        {title && <strong>{title}</strong>}
        {kind && <code className="chip">{kind}</code>}
      </div>
      <JsonView value={call} open />
    </div>
  );
}

function answerText(r: RequestView): string {
  if (r.mode === "options") {
    const opt = r.options?.find((o) => o.option_id === r.answer);
    return opt ? opt.name : String(r.answer);
  }
  return typeof r.answer === "string" ? r.answer : JSON.stringify(r.answer);
}

/** A card kept on screen after another tab or the CLI answered it while this one was typing. */
export interface Elsewhere {
  at: string;
  draft: string;
  onDismiss: () => void;
}

function AnsweredElsewhere({
  request: r,
  elsewhere,
}: {
  request: RequestView;
  elsewhere: Elsewhere;
}) {
  const who =
    r.answered_by === "engine"
      ? "the agent permission policy"
      : r.answered_by === "user"
        ? "another operator (another tab, the CLI or the API)"
        : null;
  return (
    <div className="elsewhere" role="status" data-elsewhere>
      <p>
        {who ? (
          <>
            <strong>Answered elsewhere</strong> by {who} at {formatTime(elsewhere.at)}
            {r.answer !== undefined && r.answer !== null && (
              <>
                : <code>{answerText(r)}</code>
              </>
            )}
          </>
        ) : (
          <>
            <strong>Closed elsewhere</strong> at {formatTime(elsewhere.at)}: no attempt is left to
            take an answer.
          </>
        )}
      </p>
      <div className="draft-kept">
        <div className="draft-head">
          <span className="muted small">Your unsent answer</span>
          <CopyButton text={elsewhere.draft} what="your unsent answer" />
        </div>
        <pre className="draft-text">{elsewhere.draft}</pre>
      </div>
      <button type="button" className="btn" onClick={elsewhere.onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

export function RequestCard({
  request: r,
  runTitle,
  showRun = true,
  elsewhere,
}: {
  request: RequestView;
  runTitle?: string;
  showRun?: boolean;
  elsewhere?: Elsewhere;
}) {
  const state = elsewhere
    ? "elsewhere"
    : r.answered_by
      ? "answered"
      : r.stale
        ? "stale"
        : "pending";
  return (
    <article
      className={`card request request-${state}`}
      data-request-id={r.id}
      aria-label={`Request ${r.id}`}
    >
      <header className="request-head">
        <span className={`chip kind-${r.kind}`}>{r.kind}</span>
        {showRun && (
          <Link to={`/runs/${r.run_id}`} className="request-run">
            {runTitle ?? r.run_id}
          </Link>
        )}
        <code className="chip chip-node">{r.node}</code>
        <span className="muted small">
          task #{r.task_id} · asked by {r.source} <TimeAgo iso={r.created} />
        </span>
        <span className="muted small nowrap">
          request #{r.id}
          <CopyButton text={String(r.id)} what={`request id ${r.id}`} />
        </span>
        <span className={`chip state-${state === "elsewhere" ? "answered" : state}`}>
          {state === "elsewhere" ? (r.answered_by ? "answered" : "closed") : state}
        </span>
      </header>
      <Markdown text={r.prompt} className="request-prompt" />
      {r.tool_call && <ToolCall call={r.tool_call} />}
      {state === "pending" && <AnswerControls request={r} />}
      {elsewhere && <AnsweredElsewhere request={r} elsewhere={elsewhere} />}
      {state === "answered" && (
        <p className="answered">
          Answered by{" "}
          <strong className={r.operator ? "operator" : undefined}>
            {r.operator ?? r.answered_by}
          </strong>
          : <code>{answerText(r)}</code>
        </p>
      )}
      {state === "stale" && <p className="muted small">No attempt is left to take an answer.</p>}
    </article>
  );
}
