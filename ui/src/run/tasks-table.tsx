// Every attempt of the run, oldest first. A row unfolds to its payload and result; its id
// opens the task drawer (detail, transcript, submissions, actions).
import { Fragment, useState } from "react";
import type { BranchFrame, TaskView } from "../api/types.ts";
import { CopyButton } from "../components/copy-button.tsx";
import { JsonView } from "../components/json-view.tsx";
import { StatusBadge } from "../components/status.tsx";
import { duration, formatTime } from "../components/time.tsx";
import { setSearchParam } from "../router.tsx";
import { NONE, type TaskPhases, totalsText } from "./phases.ts";

export function branchText(branch?: BranchFrame[]): string {
  if (!branch?.length) return "—";
  return branch.map((f) => `${f.index + 1}/${f.count}`).join(" › ");
}

function keyText(branch?: BranchFrame[]): string {
  const key = branch?.at(-1)?.key;
  if (key === undefined) return "";
  const text = typeof key === "string" ? key : JSON.stringify(key);
  return text.length > 24 ? `${text.slice(0, 23)}…` : text;
}

export function openTask(id: number): void {
  setSearchParam("task", String(id));
}

export function TasksTable({
  tasks,
  phases,
}: {
  tasks: TaskView[];
  phases?: Map<number, TaskPhases> | null;
}) {
  const [open, setOpen] = useState<Set<number>>(new Set());
  const toggle = (id: number) => {
    const next = new Set(open);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setOpen(next);
  };
  if (!tasks.length) return <div className="empty muted">No attempts yet.</div>;
  return (
    <table className="table tasks-table">
      <thead>
        <tr>
          <th className="col-fold" aria-label="Details" />
          <th className="col-id">Task</th>
          <th>Node</th>
          <th className="col-num">Attempt</th>
          <th className="col-status">Status</th>
          <th>Branch</th>
          <th>Started</th>
          <th>Took</th>
          <th>Error</th>
        </tr>
      </thead>
      <tbody>
        {tasks.map((t) => (
          <Fragment key={t.id}>
            <tr data-task-id={t.id} className={open.has(t.id) ? "row-open" : ""}>
              <td className="col-fold">
                <button
                  type="button"
                  className="fold"
                  aria-expanded={open.has(t.id)}
                  aria-label={`Payload and result of task ${t.id}`}
                  onClick={() => toggle(t.id)}
                >
                  ▸
                </button>
              </td>
              <td className="col-id">
                <button type="button" className="link-btn mono" onClick={() => openTask(t.id)}>
                  #{t.id}
                </button>
                <CopyButton text={String(t.id)} what={`task id ${t.id}`} />
              </td>
              <td>
                <code>{t.node}</code>
              </td>
              <td className="col-num num">{t.attempt}</td>
              <td className="col-status">
                <StatusBadge status={t.status} />
              </td>
              <td className="nowrap">
                <span className="num">{branchText(t.branch)}</span>{" "}
                <span className="muted">{keyText(t.branch)}</span>
              </td>
              <td className="nowrap muted">{formatTime(t.started)}</td>
              <td className="muted took">
                {phases?.get(t.id) ? (
                  totalsText(phases.get(t.id)?.totals ?? NONE)
                ) : (
                  <span className="num">{duration(t.started, t.finished)}</span>
                )}
              </td>
              <td className="col-error" title={t.error ?? ""}>
                {t.error ? <span className="text-error">{t.error}</span> : null}
              </td>
            </tr>
            {open.has(t.id) && (
              <tr className="row-detail">
                <td />
                <td colSpan={8}>
                  <div className="detail-grid">
                    <JsonView label="payload" value={t.payload} open />
                    <JsonView label="result" value={t.result} open />
                    {t.lineage && <JsonView label="lineage" value={t.lineage} />}
                    {t.error && <pre className="error-detail">{t.error}</pre>}
                  </div>
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
    </table>
  );
}
