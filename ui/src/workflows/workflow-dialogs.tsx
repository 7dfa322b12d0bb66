// Register (POST /api/workflows), reload (PUT) and remove (DELETE) a workflow. A load failure
// is shown with its stage and the loader's full message, where the operator typed the target.
import { type FormEvent, useState } from "react";
import { api, enc, get, post } from "../api/client.ts";
import type { Health, WorkflowOut } from "../api/types.ts";
import { Modal } from "../components/dialog.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate, markStale, useQuery } from "../live/query-cache.ts";

function usePools(): string[] {
  const health = useQuery("health", () => get<Health>("/api/health"));
  return Object.keys(health.data?.pools ?? {});
}

export function WorkflowDialog(props: {
  existing: WorkflowOut | null;
  onClose: () => void;
  onDone: (name: string) => void;
}) {
  const reload = props.existing !== null;
  const pools = usePools();
  const [target, setTarget] = useState("");
  const [pool, setPool] = useState("");
  const [persist, setPersist] = useState(false);
  const { busy, error, run } = useAction({ showsErrors: true });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = { target: target.trim() || (reload ? null : ""), pool: pool || null, persist };
    const out = await run(
      () =>
        reload
          ? api<WorkflowOut>("PUT", `/api/workflows/${enc(props.existing!.name)}`, body)
          : post<WorkflowOut>("/api/workflows", body),
      reload ? `Reloaded ${props.existing!.name}` : "Workflow registered",
    );
    if (out) {
      invalidate(["workflows", "workflow/", "source/", "plugins", "graph/"]);
      props.onDone(out.name);
    }
  };
  return (
    <Modal
      title={reload ? `Reload ${props.existing!.name}` : "Register a workflow"}
      onClose={props.onClose}
    >
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>
            Target {reload && <span className="muted">(empty: the recorded target)</span>}
          </span>
          <input
            name="target"
            className="mono"
            placeholder={reload ? (props.existing!.target ?? "") : "workflows/triage.ts:triage"}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            required={!reload}
            // biome-ignore lint/a11y/noAutofocus: the field this dialog is about
            autoFocus
            data-autofocus
          />
        </label>
        <label className="field">
          <span>Pool</span>
          <select name="pool" value={pool} onChange={(e) => setPool(e.target.value)}>
            <option value="">
              {reload
                ? `current (${props.existing!.pool})`
                : "the workflow's own pool (else default)"}
            </option>
            {pools.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={persist} onChange={(e) => setPersist(e.target.checked)} />
          <span>Persist as a row of the server's configuration file</span>
        </label>
        <ErrorNote error={error} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Close
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || (!reload && !target.trim())}
          >
            {reload ? "Reload" : "Register"}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function RemoveDialog(props: {
  workflow: WorkflowOut;
  onClose: () => void;
  onDone: () => void;
}) {
  const [persist, setPersist] = useState(false);
  const { busy, error, run } = useAction({ showsErrors: true });
  const remove = async () => {
    const out = await run(
      () =>
        api<{ task_ids: number[] }>(
          "DELETE",
          `/api/workflows/${enc(props.workflow.name)}${persist ? "?persist=true" : ""}`,
        ),
      `Removed ${props.workflow.name}`,
    );
    if (out) {
      // Leave its page first, and refetch all but its own entries: they could only answer 404
      // now. They are marked stale, for whoever shows them next.
      props.onDone();
      invalidate(["workflows", "plugins", "runs"]);
      for (const key of ["workflow/", "source/"]) markStale(key + props.workflow.name);
    }
  };
  return (
    <Modal title={`Remove ${props.workflow.name}?`} onClose={props.onClose}>
      <p>
        Every attempt of <code>{props.workflow.name}</code> in progress is stopped and put back to
        ready; one waiting on a person keeps its request open. Nothing of it runs until it is
        registered again: its runs stay listed as unregistered and then go on, a stopped attempt
        running again from its payload.
      </p>
      <label className="check">
        <input type="checkbox" checked={persist} onChange={(e) => setPersist(e.target.checked)} />
        <span>Also remove its row from the configuration file</span>
      </label>
      <ErrorNote error={error} />
      <div className="modal-actions">
        <button type="button" className="btn" onClick={props.onClose}>
          Keep workflow
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() => void remove()}
        >
          Remove workflow
        </button>
      </div>
    </Modal>
  );
}
