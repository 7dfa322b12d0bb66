// One workflow: its graph, its source with node lines, its plugin (actions and panels), its
// nodes, and the reload/remove actions.
import { useMemo, useState } from "react";
import { enc, get } from "../api/client.ts";
import type { WorkflowOut } from "../api/types.ts";
import { ErrorNote, errorText } from "../components/error-note.tsx";
import { Icon } from "../components/icons.tsx";
import { Tabs } from "../components/tabs.tsx";
import { toast } from "../components/toast.tsx";
import { FlowGraph } from "../graph/flow-graph.tsx";
import type { GraphEdgeInfo, GraphNodeInfo } from "../graph/layout.ts";
import { useQuery } from "../live/query-cache.ts";
import { ActionForm } from "../plugins/form-panel.tsx";
import { panelTitle } from "../plugins/manifest.ts";
import { PanelList, usePanels } from "../plugins/panels.tsx";
import { Link, navigate } from "../router.tsx";
import { type BulkResult, retryAllFailed } from "../runs/bulk.ts";
import { BulkResultNote } from "../runs/bulk-bar.tsx";
import { SubmitRunDialog } from "../runs/submit-run.tsx";
import { FailuresCard } from "./failures-card.tsx";
import { NodesTable } from "./nodes-table.tsx";
import { SourceView } from "./source-view.tsx";
import { RemoveDialog, WorkflowDialog } from "./workflow-dialogs.tsx";

function graphOf(wf: WorkflowOut): { nodes: GraphNodeInfo[]; edges: GraphEdgeInfo[] } {
  const nodes = Object.entries(wf.nodes).map(([name, n]) => ({
    name,
    generation: n.generation,
    description: n.description,
  }));
  const edges = Object.entries(wf.nodes).flatMap(([from, n]) =>
    n.edges.map((to) => ({ from, to })),
  );
  return { nodes, edges };
}

export function WorkflowDetail({ name }: { name: string }) {
  const wf = useQuery(`workflow/${name}`, () => get<WorkflowOut>(`/api/workflows/${enc(name)}`));
  const [tab, setTab] = useState("graph");
  const [focus, setFocus] = useState<string | null>(null);
  const [dialog, setDialog] = useState<"reload" | "remove" | "submit" | null>(null);
  const [retried, setRetried] = useState<BulkResult | null>(null);
  const panes = usePanels(name, "workflow", "pane");
  const cards = usePanels(name, "workflow", "card");
  const data = wf.data;
  const graph = useMemo(() => (data ? graphOf(data) : null), [data]);
  if (!data || !graph)
    return (
      <div className="page">
        {wf.error ? <ErrorNote error={wf.error} /> : <p className="muted">Loading…</p>}
      </div>
    );
  const actions = data.plugin.actions.filter((a) => a.scope === "workflow" || a.scope === "global");
  const tabs = [
    { id: "graph", label: "Graph" },
    { id: "source", label: "Source" },
    { id: "plugin", label: `Plugin (${data.plugin.actions.length + data.plugin.panels.length})` },
    ...panes.map((p) => ({ id: `panel:${p.panel.name}`, label: panelTitle(p.panel.name) })),
  ];
  const pane = panes.find((p) => tab === `panel:${p.panel.name}`);
  return (
    <div className="page">
      <nav className="crumbs" aria-label="Breadcrumb">
        <Link to="/workflows">Workflows</Link>
        <span aria-hidden="true">/</span>
        <span>{name}</span>
      </nav>
      <div className="page-head">
        <div>
          <h1 className="mono">{data.name}</h1>
          <div className="run-meta">
            <span className="chip">pool {data.pool}</span>
            <span className="muted num">
              {data.in_flight}/{data.capacity} slots leased
            </span>
            <span className="muted">
              start at <code>{data.start}</code>
            </span>
            {data.target && <code className="muted small">{data.target}</code>}
          </div>
        </div>
        <div className="btn-row">
          <button type="button" className="btn btn-primary" onClick={() => setDialog("submit")}>
            <Icon name="plus" /> New run
          </button>
          <RetryAllFailed name={name} onResult={setRetried} />
          <button type="button" className="btn" onClick={() => setDialog("reload")}>
            <Icon name="reload" /> Reload
          </button>
          <button type="button" className="btn danger-hover" onClick={() => setDialog("remove")}>
            <Icon name="trash" /> Remove
          </button>
        </div>
      </div>
      {retried && <BulkResultNote result={retried} onClose={() => setRetried(null)} />}
      <div className="run-grid">
        <div className="run-main">
          <section className="card card-flush">
            <Tabs tabs={tabs} active={tab} onChange={setTab} label="Workflow views" />
            <div className="tab-body">
              {tab === "graph" && (
                <FlowGraph
                  nodes={graph.nodes}
                  edges={graph.edges}
                  selected={focus}
                  onSelect={(n) => {
                    setFocus(n);
                    setTab("source");
                  }}
                />
              )}
              {tab === "source" && <SourceView name={name} focus={focus} />}
              {tab === "plugin" && (
                <div className="plugin-summary">
                  {data.plugin.panels.length === 0 && data.plugin.actions.length === 0 && (
                    <p className="muted">This workflow declares no plugin actions or panels.</p>
                  )}
                  {actions.map((a) => (
                    <section key={a.name} className="card">
                      <h3 className="card-title">{a.title}</h3>
                      <ActionForm workflow={name} action={a} scope={{}} />
                    </section>
                  ))}
                  {data.plugin.panels.length > 0 && (
                    <table className="table table-compact">
                      <thead>
                        <tr>
                          <th>Panel</th>
                          <th>Kind</th>
                          <th>Slot</th>
                          <th>Placement</th>
                          <th>Refreshed on</th>
                        </tr>
                      </thead>
                      <tbody>
                        {data.plugin.panels.map((p) => (
                          <tr key={p.name}>
                            <td>{p.name}</td>
                            <td>
                              <code>{p.kind}</code>
                            </td>
                            <td>
                              {p.slot}
                              {p.node ? ` (${p.node})` : ""}
                            </td>
                            <td>{p.placement}</td>
                            <td className="muted">{(p.refresh_on ?? []).join(", ") || "—"}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  )}
                </div>
              )}
              {pane && <PanelList panels={[pane]} scope={{}} bare />}
            </div>
          </section>
        </div>
        <aside className="run-side">
          <NodesTable workflow={data} />
          <FailuresCard name={name} />
          <PanelList panels={cards} scope={{}} />
        </aside>
      </div>
      {dialog === "reload" && (
        <WorkflowDialog
          existing={data}
          onClose={() => setDialog(null)}
          onDone={() => setDialog(null)}
        />
      )}
      {dialog === "remove" && (
        <RemoveDialog
          workflow={data}
          onClose={() => setDialog(null)}
          onDone={() => navigate("/workflows")}
        />
      )}
      {dialog === "submit" && (
        <SubmitRunDialog
          workflows={[data]}
          initial={data.name}
          onClose={() => setDialog(null)}
          onCreated={(id) => navigate(`/runs/${id}`)}
        />
      )}
    </div>
  );
}

/** Retries the dead-lettered attempts of every failed run of the workflow (bulk, by filter). */
function RetryAllFailed({
  name,
  onResult,
}: {
  name: string;
  onResult: (result: BulkResult) => void;
}) {
  const [busy, setBusy] = useState(false);
  const retry = async () => {
    setBusy(true);
    try {
      onResult(await retryAllFailed(name));
    } catch (err) {
      toast(`Retry failed: ${errorText(err)}`, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="btn"
      disabled={busy}
      data-testid="retry-all-failed"
      onClick={retry}
    >
      <Icon name="reload" /> Retry all failed
    </button>
  );
}
