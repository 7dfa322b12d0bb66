// A run: header with its lifecycle buttons, the live graph, then tabs for tasks, the work log,
// requests, stored events and plugin panes; output, stats and plugin cards on the right. A
// selected task (?task=) or node (?node=) opens in a side drawer.
import { ApiError, enc, get } from "../api/client.ts";
import type { GraphOut, RunDetail, TaskView } from "../api/types.ts";
import { ErrorNote } from "../components/error-note.tsx";
import { Tabs } from "../components/tabs.tsx";
import { useQuery } from "../live/query-cache.ts";
import { panelTitle } from "../plugins/manifest.ts";
import { PanelList, usePanels } from "../plugins/panels.tsx";
import { Link, setSearchParam, useRoute } from "../router.tsx";
import { EventsList } from "./events-list.tsx";
import { NodeDrawer } from "./node-drawer.tsx";
import { OutputCard, StatsCard } from "./output-card.tsx";
import { RequestsTab } from "./requests-tab.tsx";
import { RunGraph } from "./run-graph.tsx";
import { RunHeader } from "./run-header.tsx";
import { TaskDrawer } from "./task-drawer.tsx";
import { TasksTable } from "./tasks-table.tsx";
import { Timeline } from "./timeline.tsx";
import { usePhases } from "./use-phases.ts";
import { WorkLog } from "./work-log.tsx";

const NO_TASKS: TaskView[] = [];

export function RunPage({ runId }: { runId: string }) {
  const { search } = useRoute();
  const run = useQuery(`run/${runId}`, () => get<RunDetail>(`/api/runs/${enc(runId)}`));
  const detail = run.data;
  // The graph is the registered workflow's: for a run of an unregistered one the server can only
  // answer 404, so it is not asked (a refusal is a console error in every browser).
  const drawable = detail && !detail.unregistered;
  const graph = useQuery(drawable ? `graph/${runId}` : null, () =>
    get<GraphOut>(`/api/runs/${enc(runId)}/graph`),
  );
  const panes = usePanels(detail?.workflow ?? null, "run", "pane");
  const cards = usePanels(detail?.workflow ?? null, "run", "card");
  const tab = search.get("tab") ?? "tasks";
  // Asked once the run is known: an unknown run answers one 404, not two.
  const phases = usePhases(detail ? runId : null, detail?.tasks ?? NO_TASKS);
  const taskId = search.get("task");
  const node = search.get("node");
  // Gone since it was shown (deleted by another operator): say so instead of showing the old copy.
  const gone = run.error instanceof ApiError && run.error.status === 404;
  if (!detail || gone) {
    return (
      <div className="page">
        {run.error ? <ErrorNote error={run.error} /> : <p className="muted">Loading run…</p>}
        {gone && (
          <p>
            <Link to="/runs">Back to the runs</Link>
          </p>
        )}
      </div>
    );
  }
  const scope = { run_id: runId };
  const tabs = [
    { id: "tasks", label: `Tasks ${detail.tasks?.length ? `(${detail.tasks.length})` : ""}` },
    { id: "timeline", label: "Timeline" },
    { id: "log", label: "Work log" },
    {
      id: "requests",
      label: detail.pending_requests ? `Requests (${detail.pending_requests})` : "Requests",
    },
    { id: "events", label: "Events" },
    ...panes.map((p) => ({
      id: `panel:${p.workflow}:${p.panel.name}`,
      label: panelTitle(p.panel.name),
    })),
  ];
  const pane = panes.find((p) => tab === `panel:${p.workflow}:${p.panel.name}`);
  return (
    <div className="page page-run">
      <RunHeader run={detail} phases={phases} />
      <div className="run-grid">
        <div className="run-main">
          <section className="card card-flush" aria-label="Graph">
            {detail.unregistered ? (
              <div className="graph graph-empty muted" data-graph="unregistered">
                No graph: the workflow {detail.workflow} is not registered on this server.
              </div>
            ) : graph.data ? (
              <RunGraph graph={graph.data} selected={node} />
            ) : (
              <div className="graph graph-empty">
                {graph.error ? (
                  <ErrorNote error={graph.error} compact />
                ) : (
                  <span className="muted">Loading graph…</span>
                )}
              </div>
            )}
          </section>
          <section className="card card-flush">
            <Tabs
              tabs={tabs}
              active={tab}
              onChange={(id) => setSearchParam("tab", id, true)}
              label="Run views"
            />
            <div className="tab-body">
              {tab === "tasks" && <TasksTable tasks={detail.tasks ?? []} phases={phases} />}
              {tab === "timeline" &&
                (phases ? (
                  <Timeline phases={[...phases.values()]} />
                ) : (
                  <div className="empty muted">Loading the timeline…</div>
                ))}
              {tab === "log" && <WorkLog runId={runId} />}
              {tab === "requests" && <RequestsTab runId={runId} />}
              {tab === "events" && <EventsList runId={runId} />}
              {pane && <PanelList panels={[pane]} scope={scope} bare />}
            </div>
          </section>
        </div>
        <aside className="run-side">
          <OutputCard run={detail} />
          <StatsCard run={detail} />
          <PanelList panels={cards} scope={scope} />
        </aside>
      </div>
      {taskId && (
        <TaskDrawer
          taskId={Number(taskId)}
          run={detail}
          graph={graph.data ?? null}
          phases={phases?.get(Number(taskId)) ?? null}
        />
      )}
      {node && !taskId && <NodeDrawer run={detail} node={node} graph={graph.data ?? null} />}
    </div>
  );
}
