// What an operator can do to an attempt: retry it, move its payload to another node, rerun its
// node, or write its status (ready, cancelled, dead_letter).
import { type FormEvent, useState } from "react";
import { enc, post } from "../api/client.ts";
import type { GraphOut, TaskView } from "../api/types.ts";
import { confirmAction, Modal } from "../components/dialog.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { toast } from "../components/toast.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate } from "../live/query-cache.ts";

const GOING = new Set(["ready", "in_progress", "waiting"]);
const WRITABLE = ["ready", "cancelled", "dead_letter"] as const;

function refresh(task: TaskView) {
  invalidate([`run/${task.run_id}`, `graph/${task.run_id}`, `task/${task.id}`, "runs"]);
}

function ChoiceDialog(props: {
  title: string;
  label: string;
  choices: string[];
  submit: string;
  help: string;
  onPick: (value: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [value, setValue] = useState(props.choices[0] ?? "");
  const { busy, error, run } = useAction();
  const go = async (e: FormEvent) => {
    e.preventDefault();
    const ok = await run(() => props.onPick(value));
    if (ok !== undefined) props.onClose();
  };
  return (
    <Modal title={props.title} onClose={props.onClose}>
      <form className="form" onSubmit={go}>
        <p className="muted">{props.help}</p>
        <label className="field">
          <span>{props.label}</span>
          <select value={value} onChange={(e) => setValue(e.target.value)}>
            {props.choices.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </label>
        <ErrorNote error={error} />
        <div className="modal-actions">
          <button type="button" className="btn" onClick={props.onClose}>
            Close
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy || !value}>
            {props.submit}
          </button>
        </div>
      </form>
    </Modal>
  );
}

/**
 * Whether the operator agrees to run an already finished node again: that repeats its side
 * effects and re-opens a finished run, so one click must not do it unasked.
 */
export async function confirmRepeat(node: string, what: string): Promise<boolean> {
  return confirmAction({
    title: `${what} a done task?`,
    body: (
      <p>
        Node <code>{node}</code> already finished. It runs again: whatever it does outside
        Yardmaster (messages sent, files written, calls made) happens again, and a finished run is
        opened again until the new attempt ends.
      </p>
    ),
    confirm: what,
    keep: "Don't run it again",
    danger: false,
  });
}

export function TaskActions({ task, graph }: { task: TaskView; graph: GraphOut | null }) {
  const [dialog, setDialog] = useState<"move" | "status" | null>(null);
  const { busy, run } = useAction();
  const going = GOING.has(task.status);
  const targets = (graph?.nodes ?? []).filter((n) => !n.join).map((n) => n.name);
  const doneCheck = (what: string) => task.status !== "done" || confirmRepeat(task.node, what);
  const retry = async () =>
    (await doneCheck("Retry")) &&
    run(async () => {
      const ref = await post<{ task_id: number }>(`/api/tasks/${task.id}/retry`);
      refresh(task);
      return ref;
    }, "Retry enqueued");
  const rerun = async () =>
    (await doneCheck("Rerun node")) &&
    run(async () => {
      const ref = await post<{ task_id: number }>(`/api/runs/${enc(task.run_id)}/rerun`, {
        node: task.node,
      });
      refresh(task);
      return ref;
    }, `Rerun of ${task.node} enqueued`);
  return (
    <div className="btn-row task-actions">
      <button
        type="button"
        className="btn"
        disabled={busy || going}
        onClick={retry}
        title={going ? "The attempt is still going" : "Enqueue the next attempt"}
      >
        <Icon name="retry" /> Retry
      </button>
      <button type="button" className="btn" disabled={busy} onClick={() => setDialog("move")}>
        <Icon name="move" /> Move…
      </button>
      <button type="button" className="btn" disabled={busy} onClick={rerun}>
        <Icon name="reload" /> Rerun node
      </button>
      <button type="button" className="btn" disabled={busy} onClick={() => setDialog("status")}>
        Set status…
      </button>
      {dialog === "move" && (
        <ChoiceDialog
          title={`Move task #${task.id}`}
          label="Target node"
          choices={targets}
          submit="Move"
          help="Cancels this attempt and enqueues its payload at another node. A join cannot be a target."
          onPick={async (node) => {
            const ref = await post<{ task_id: number }>(`/api/tasks/${task.id}/move`, { node });
            refresh(task);
            toast(`Moved to ${node} as task #${ref.task_id}`);
            return true;
          }}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "status" && (
        <ChoiceDialog
          title={`Set status of task #${task.id}`}
          label="Status"
          choices={[...WRITABLE]}
          submit="Set status"
          help="ready re-dispatches the attempt (and re-opens an ended run); cancelled stops it; dead_letter files it as failed for good."
          onPick={async (status) => {
            await post(`/api/tasks/${task.id}/status`, { status });
            refresh(task);
            toast(`Task #${task.id} set to ${status}`);
            return true;
          }}
          onClose={() => setDialog(null)}
        />
      )}
    </div>
  );
}
