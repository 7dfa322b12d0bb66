// One attempt in the drawer: detail, live transcript, submissions, actions and task panels.
import { type ReactNode, useCallback, useState } from "react";
import { get } from "../api/client.ts";
import type {
  GraphOut,
  RejectedSubmission,
  RunDetail,
  TaskDetail,
  TaskError,
} from "../api/types.ts";
import { CopyButton } from "../components/copy-button.tsx";
import { ErrorNote } from "../components/error-note.tsx";
import { humanMessage } from "../components/human-errors.ts";
import { JsonView } from "../components/json-view.tsx";
import { StatusBadge } from "../components/status.tsx";
import { Tabs } from "../components/tabs.tsx";
import { duration, formatTime } from "../components/time.tsx";
import { useQuery } from "../live/query-cache.ts";
import { panelTitle } from "../plugins/manifest.ts";
import { PanelList, usePanels } from "../plugins/panels.tsx";
import { setSearchParam } from "../router.tsx";
import { Drawer } from "./drawer.tsx";
import { ExplainSection } from "./explain-section.tsx";
import { type TaskPhases, totalsText } from "./phases.ts";
import { TaskActions } from "./task-actions.tsx";
import { branchText } from "./tasks-table.tsx";
import { Transcript } from "./transcript.tsx";

/** Whether the task's result ends its branch, in words that fit its state. */
function branchOutput(task: TaskDetail): string {
  if (task.terminal) return "yes: its result is a branch output";
  if (task.status === "dead_letter") return "none: it failed for good";
  if (task.status === "done") return "no: its result went on to the next nodes";
  return "not yet known";
}

function Facts({ task, phases }: { task: TaskDetail; phases: TaskPhases | null }) {
  const rows: [string, ReactNode][] = [
    [
      "Task",
      <>
        <span className="mono">{task.id}</span>
        <CopyButton text={String(task.id)} what="task id" />
      </>,
    ],
    ["Node", task.node],
    ["Attempt", String(task.attempt)],
    ["Priority", `${task.priority}${task.explicit ? " (declared)" : ""}`],
    ["Branch", branchText(task.branch)],
    ["Created", formatTime(task.created)],
    ["Started", formatTime(task.started)],
    ["Finished", formatTime(task.finished)],
    ["Took", phases ? totalsText(phases.totals) : duration(task.started, task.finished)],
    ["Branch output", branchOutput(task)],
  ];
  return (
    <dl className="kv">
      {rows.map(([k, v]) => (
        <div key={k} className="kv-row">
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The stack where the body threw, folded: most readers want the message above. */
function ErrorStack({ taskId }: { taskId: number }) {
  const stack = useQuery(`task/${taskId}/error`, () => get<TaskError>(`/api/tasks/${taskId}/error`))
    .data?.stack;
  if (!stack) return null;
  return (
    <details className="error-stack">
      <summary>Stack</summary>
      <pre>{stack}</pre>
    </details>
  );
}

function submissionCount(accepted: number, rejected: number): string {
  if (!accepted && !rejected) return "";
  return rejected ? ` (${accepted} · ${rejected} rejected)` : ` (${accepted})`;
}

/** Accepted and rejected submissions, oldest first. */
function Submissions({
  accepted,
  rejected,
}: {
  accepted: TaskDetail["submissions"];
  rejected: RejectedSubmission[];
}) {
  const items = [
    ...accepted.map((s) => ({ at: s.created, key: `a${s.id}`, accepted: s })),
    ...rejected.map((r) => ({ at: r.created, key: `r${r.event_id}`, rejected: r })),
  ].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (!items.length) {
    return <div className="empty muted">No submission was accepted for this attempt.</div>;
  }
  return (
    <ol className="submissions">
      {items.map((item) =>
        "accepted" in item && item.accepted ? (
          <li key={item.key}>
            <div className="muted small">
              #{item.accepted.id} · {formatTime(item.at)}
            </div>
            <JsonView value={item.accepted.payload} open />
          </li>
        ) : "rejected" in item && item.rejected ? (
          <li key={item.key} className="submission-rejected" data-rejected={item.rejected.event_id}>
            <div className="small">
              <strong>rejected</strong>: {item.rejected.errors.length} validation error
              {item.rejected.errors.length === 1 ? "" : "s"}
              <span className="muted"> · {formatTime(item.at)}</span>
            </div>
            <ul className="rejection-errors">
              {item.rejected.errors.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: errors have no id of their own
                <li key={i}>
                  <span className="mono">{e.loc.join(".") || "(root)"}</span>: {humanMessage(e.msg)}
                </li>
              ))}
            </ul>
          </li>
        ) : null,
      )}
    </ol>
  );
}

export function TaskDrawer({
  taskId,
  run,
  graph,
  phases = null,
}: {
  taskId: number;
  run: RunDetail;
  graph: GraphOut | null;
  phases?: TaskPhases | null;
}) {
  const task = useQuery(`task/${taskId}`, () => get<TaskDetail>(`/api/tasks/${taskId}`));
  const rejected = useQuery(`task/${taskId}/rejections`, () =>
    get<RejectedSubmission[]>(`/api/tasks/${taskId}/rejections`),
  ).data;
  const [tab, setTab] = useState("detail");
  const panes = usePanels(run.workflow, "task", "pane");
  const cards = usePanels(run.workflow, "task", "card");
  const close = useCallback(() => setSearchParam("task", null), []);
  const t = task.data;
  const scope = { run_id: run.id, task_id: taskId, node: t?.node ?? null };
  const tabs = [
    { id: "detail", label: "Detail" },
    { id: "transcript", label: "Transcript" },
    {
      id: "submissions",
      label: `Submissions${submissionCount(t?.submissions.length ?? 0, rejected?.length ?? 0)}`,
    },
    ...panes.map((p) => ({ id: `panel:${p.panel.name}`, label: panelTitle(p.panel.name) })),
  ];
  const pane = panes.find((p) => tab === `panel:${p.panel.name}`);
  return (
    <Drawer
      label="Task"
      onClose={close}
      focusKey={String(taskId)}
      title={
        <>
          <span className="mono">Task #{taskId}</span>
          {t && <StatusBadge status={t.status} />}
        </>
      }
    >
      {task.error && <ErrorNote error={task.error} />}
      {t && (
        <>
          <TaskActions task={t} graph={graph} />
          <Tabs tabs={tabs} active={tab} onChange={setTab} label="Task views" />
          <div className="drawer-tab">
            {tab === "detail" && (
              <>
                <PanelList panels={cards} scope={scope} />
                <ExplainSection task={t} />
                {t.error && <pre className="error-detail">{t.error}</pre>}
                {t.error && <ErrorStack taskId={taskId} />}
                <Facts task={t} phases={phases} />
                <JsonView label="payload" value={t.payload} open />
                <JsonView label="result" value={t.result} open />
                {t.stats && <JsonView label="stats" value={t.stats} />}
                {t.lineage && <JsonView label="lineage" value={t.lineage} />}
              </>
            )}
            {tab === "transcript" && <Transcript taskId={taskId} rejected={rejected ?? []} />}
            {tab === "submissions" && (
              <Submissions accepted={t.submissions} rejected={rejected ?? []} />
            )}
            {pane && <PanelList panels={[pane]} scope={scope} bare />}
          </div>
        </>
      )}
    </Drawer>
  );
}
