// Editing a run's title and description (PATCH /api/runs/{id}): only what changed is sent, so
// an edit never rewrites a field another operator changed meanwhile.
import { type FormEvent, useState } from "react";
import { api, enc } from "../api/client.ts";
import type { RunDetail } from "../api/types.ts";
import { Modal } from "../components/dialog.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate } from "../live/query-cache.ts";
import { RunTextFields } from "../runs/run-text-fields.tsx";

export function EditRunDialog({ run, onClose }: { run: RunDetail; onClose: () => void }) {
  const [title, setTitle] = useState(run.title);
  const [description, setDescription] = useState(run.description ?? "");
  const { busy, error, run: act } = useAction();
  const changed: { title?: string; description?: string } = {};
  if (title !== run.title) changed.title = title;
  if (description !== (run.description ?? "")) changed.description = description;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const done = await act(() => api("PATCH", `/api/runs/${enc(run.id)}`, changed), "Run updated");
    if (done !== undefined) {
      invalidate([`run/${run.id}`, "runs"]);
      onClose();
    }
  };
  return (
    <Modal title="Edit run" onClose={onClose}>
      <form className="form" onSubmit={submit}>
        <RunTextFields
          title={title}
          description={description}
          onTitle={setTitle}
          onDescription={setDescription}
          descriptionHint="markdown"
        />
        <p className="muted small">The start task keeps the payload it was given at submit.</p>
        <ErrorNote error={error} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !title.trim() || Object.keys(changed).length === 0}
          >
            Save
          </button>
        </div>
      </form>
    </Modal>
  );
}
