// The run's graph from GET /api/runs/{id}/graph: node states, join arrivals, edge traversal
// counts and fan-out branches. Clicking a node opens it in the drawer.
import { useCallback, useMemo } from "react";
import type { GraphOut } from "../api/types.ts";
import { statusLabel, toneOf } from "../components/status.tsx";
import { FlowGraph } from "../graph/flow-graph.tsx";
import type { GraphNodeInfo } from "../graph/layout.ts";
import { setSearchParam } from "../router.tsx";

const STATES = [
  "in_progress",
  "waiting",
  "ready",
  "done",
  "failed",
  "dead_letter",
  "cancelled",
  "idle",
];

export function RunGraph({ graph, selected }: { graph: GraphOut; selected: string | null }) {
  const nodes = useMemo<GraphNodeInfo[]>(
    () =>
      graph.nodes.map((n) => ({
        name: n.name,
        generation: n.generation,
        join: n.join,
        state: n.state,
        attempts: n.attempts,
        arrivals: n.arrivals ?? null,
        branches: n.branches?.length,
        lastTaskId: n.last_task_id ?? null,
      })),
    [graph],
  );
  const onSelect = useCallback((name: string) => {
    const url = new URL(window.location.href);
    url.searchParams.delete("task");
    window.history.replaceState(null, "", url.pathname + url.search);
    setSearchParam("node", name);
  }, []);
  const present = new Set(graph.nodes.map((n) => n.state));
  return (
    <div className="graph-wrap">
      <FlowGraph nodes={nodes} edges={graph.edges} selected={selected} onSelect={onSelect} />
      <div className="legend">
        {STATES.filter((s) => present.has(s as never)).map((s) => (
          <span key={s} className={`legend-item tone-${toneOf(s)}`} data-legend={s}>
            <span className="dot" aria-hidden="true" />
            {statusLabel(s)}
          </span>
        ))}
      </div>
    </div>
  );
}
