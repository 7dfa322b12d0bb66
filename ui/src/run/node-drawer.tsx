// A node of the run's graph: its state, its attempts by branch, rerun, and node panels.
import { useCallback } from "react";
import { enc, post } from "../api/client.ts";
import type { GraphOut, RunDetail } from "../api/types.ts";
import { Icon } from "../components/icons.tsx";
import { StatusBadge } from "../components/status.tsx";
import { useAction } from "../components/use-action.ts";
import { invalidate } from "../live/query-cache.ts";
import { PanelList, usePanels } from "../plugins/panels.tsx";
import { setSearchParam } from "../router.tsx";
import { Drawer } from "./drawer.tsx";
import { confirmRepeat } from "./task-actions.tsx";
import { openTask } from "./tasks-table.tsx";

export function NodeDrawer({
  run,
  node,
  graph,
}: {
  run: RunDetail;
  node: string;
  graph: GraphOut | null;
}) {
  const info = graph?.nodes.find((n) => n.name === node);
  const panels = usePanels(run.workflow, "node", null).filter(
    (p) => !p.panel.node || p.panel.node === node,
  );
  const close = useCallback(() => setSearchParam("node", null), []);
  const { busy, run: act } = useAction();
  const tasks = (run.tasks ?? []).filter((t) => t.node === node);
  const status = new Map(tasks.map((t) => [t.id, t.status]));
  // The node's latest attempt done: running it again repeats what it did, so ask first.
  const rerun = async () =>
    (tasks.at(-1)?.status !== "done" || (await confirmRepeat(node, "Rerun node"))) &&
    act(async () => {
      await post(`/api/runs/${enc(run.id)}/rerun`, { node });
      invalidate([`run/${run.id}`, `graph/${run.id}`]);
      return true;
    }, `Rerun of ${node} enqueued`);
  const scope = { run_id: run.id, node, task_id: info?.last_task_id ?? null };
  return (
    <Drawer
      label="Node"
      onClose={close}
      focusKey={node}
      title={
        <>
          <code>{node}</code>
          {info && <StatusBadge status={info.state} />}
        </>
      }
    >
      <div className="btn-row">
        <button type="button" className="btn" disabled={busy} onClick={rerun}>
          <Icon name="reload" /> Rerun node
        </button>
      </div>
      {info?.arrivals && (
        <p>
          Join: <strong className="num">{info.arrivals.arrived}</strong> of{" "}
          <strong className="num">{info.arrivals.count}</strong> branches arrived.
        </p>
      )}
      <h3 className="section-title">Attempts by branch</h3>
      {(info?.branches ?? []).length === 0 && <p className="muted">No attempt of this node yet.</p>}
      <ol className="branches">
        {(info?.branches ?? []).map((b, i) => (
          <li key={b.tasks[0] ?? i}>
            <span className="muted small">
              {b.from_task ? `branch ${i + 1} from #${b.from_task}` : "single path"}
            </span>
            <span className="branch-tasks">
              {b.tasks.map((id) => (
                <button key={id} type="button" className="task-pill" onClick={() => openTask(id)}>
                  #{id} <StatusBadge status={status.get(id) ?? "idle"} pulse={false} />
                </button>
              ))}
            </span>
          </li>
        ))}
      </ol>
      <PanelList panels={panels} scope={scope} />
    </Drawer>
  );
}
