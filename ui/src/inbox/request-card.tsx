// One request for human input: who asked, the prompt (untrusted: sanitized markdown), a
// permission request's tool call, and either the answer controls or the recorded answer.
import type { RequestView } from "../api/types.ts";
import { JsonView } from "../components/json-view.tsx";
import { Markdown } from "../components/markdown.tsx";
import { TimeAgo } from "../components/time.tsx";
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

export function RequestCard({
  request: r,
  runTitle,
  showRun = true,
}: {
  request: RequestView;
  runTitle?: string;
  showRun?: boolean;
}) {
  const state = r.answered_by ? "answered" : r.stale ? "stale" : "pending";
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
        <span className={`chip state-${state}`}>{state}</span>
      </header>
      <Markdown text={r.prompt} className="request-prompt" />
      {r.tool_call && <ToolCall call={r.tool_call} />}
      {state === "pending" && <AnswerControls request={r} />}
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
