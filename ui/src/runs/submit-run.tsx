// Submit a run: pick a workflow, give it a title and an optional description, and the run's
// input when the workflow declares an input schema (a form generated from `input_schema`).
import { type FormEvent, useState } from "react";
import { enc, post } from "../api/client.ts";
import type { WorkflowOut } from "../api/types.ts";
import { Modal } from "../components/dialog.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { SchemaForm } from "../components/schema-form.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate } from "../live/query-cache.ts";
import { RunTextFields } from "./run-text-fields.tsx";

export function SubmitRunDialog(props: {
  workflows: WorkflowOut[];
  initial: string;
  onClose: () => void;
  onCreated: (runId: string) => void;
}) {
  const [picked, setWorkflow] = useState(props.initial || props.workflows[0]?.name || "");
  const [title, setTitle] = useState("");
  const [description, setDescription] = useState("");
  const { busy, error, run } = useAction();
  // A workflow removed while the dialog is open drops out of the list: the select then shows
  // the first one left, and the run goes where the select shows.
  const workflow = props.workflows.some((w) => w.name === picked)
    ? picked
    : (props.workflows[0]?.name ?? "");
  const inputSchema = props.workflows.find((w) => w.name === workflow)?.input_schema;
  const send = async (input?: unknown) => {
    // A workflow without an input schema gets the body it always got: no `input` member.
    const body = input === undefined ? { title, description } : { title, description, input };
    const created = await run(
      () => post<{ run_id: string }>(`/api/workflows/${enc(workflow)}/runs`, body),
      `Submitted “${title}”`,
    );
    if (created) {
      invalidate(["runs"]);
      props.onCreated(created.run_id);
    }
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await send();
  };
  const picker = (
    <label className="field">
      <span>Workflow</span>
      <select
        name="workflow"
        value={workflow}
        onChange={(e) => setWorkflow(e.target.value)}
        required
      >
        {props.workflows.map((w) => (
          <option key={w.name} value={w.name}>
            {w.name}
          </option>
        ))}
      </select>
    </label>
  );
  const texts = (
    <RunTextFields
      title={title}
      description={description}
      onTitle={setTitle}
      onDescription={setDescription}
      descriptionHint="optional, markdown"
    />
  );
  if (inputSchema) {
    // The input form is a form of its own (rjsf), so the title fields sit beside it, and its
    // submit button submits the run.
    return (
      <Modal title="New run" onClose={props.onClose}>
        <div className="form" data-run-input>
          {picker}
          {texts}
          <ErrorNote error={error} />
          <SchemaForm
            key={workflow}
            schema={inputSchema}
            submitLabel="Submit run"
            busy={busy}
            error={error}
            submitDisabled={!title.trim()}
            onSubmit={(value) => void send(value)}
          />
          <div className="modal-actions">
            <button type="button" className="btn" onClick={props.onClose}>
              Close
            </button>
          </div>
        </div>
      </Modal>
    );
  }
  return (
    <Modal title="New run" onClose={props.onClose}>
      <form className="form" onSubmit={submit}>
        {picker}
        {texts}
        <ErrorNote error={error} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Close
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || !workflow || !title.trim()}
          >
            Submit run
          </button>
        </div>
      </form>
    </Modal>
  );
}
