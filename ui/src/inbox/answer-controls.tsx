// How a request is answered, by its mode: options as buttons, a form from its JSON Schema, or
// free text. Whatever the server refuses (invalid_option, already_answered, stale_request,
// validation) is shown right under the control.
import { useState } from "react";
import { post } from "../api/client.ts";
import type { RequestOption, RequestView } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { SchemaForm } from "../components/schema-form.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate } from "../live/query-cache.ts";
import { draftOf, dropDraft, formDraft, markSending, setDraft } from "./drafts.ts";

function optionClass(o: RequestOption): string {
  const kind = o.kind ?? "";
  if (kind.startsWith("allow")) return "btn btn-primary";
  if (kind.startsWith("reject")) return "btn btn-danger-outline";
  return "btn";
}

export function AnswerControls({ request }: { request: RequestView }) {
  const { busy, error, run } = useAction();
  // A card shown again (the page left and came back) finds what was typed into it.
  const [text, setText] = useState(() => draftOf(request.id) ?? "");
  const answer = (body: { option_id?: string; value?: unknown }) =>
    run(async () => {
      markSending(request.id, true);
      try {
        const out = await post<RequestView>(`/api/requests/${request.id}/answer`, body);
        dropDraft(request.id);
        invalidate(["inbox", `requests/${request.run_id}`, `run/${request.run_id}`, "runs"]);
        return out;
      } finally {
        markSending(request.id, false);
      }
    }, `Answered request #${request.id}`);
  return (
    <div className="answer" data-mode={request.mode}>
      {request.mode === "options" && (
        <div className="btn-row options">
          {(request.options ?? []).map((o) => (
            <button
              key={o.option_id}
              type="button"
              className={optionClass(o)}
              disabled={busy}
              data-option={o.option_id}
              onClick={() => void answer({ option_id: o.option_id })}
            >
              {o.name}
            </button>
          ))}
        </div>
      )}
      {request.mode === "form" && (
        <SchemaForm
          schema={request.schema ?? { type: "object" }}
          submitLabel="Send answer"
          busy={busy}
          error={error}
          onSubmit={(value) => void answer({ value })}
          onChange={(value) => setDraft(request.id, formDraft(value))}
        />
      )}
      {request.mode === "text" && (
        <form
          className="text-answer"
          onSubmit={(e) => {
            e.preventDefault();
            void answer({ value: text });
          }}
        >
          <textarea
            rows={3}
            value={text}
            aria-label="Answer"
            onChange={(e) => {
              setText(e.target.value);
              setDraft(request.id, e.target.value);
            }}
          />
          <button type="submit" className="btn btn-primary" disabled={busy || !text.trim()}>
            Send answer
          </button>
        </form>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
