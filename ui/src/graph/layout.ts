// Places a workflow graph for drawing: one column per generation (BFS depth from the start),
// nodes of a column stacked and centred. Edges into an earlier or equal generation are loops.
import type { Edge, Node } from "@xyflow/react";
import type { NodeState } from "../api/types.ts";

export interface GraphNodeInfo {
  name: string;
  generation: number;
  join?: boolean;
  state?: NodeState;
  attempts?: number;
  arrivals?: { arrived: number; count: number } | null;
  branches?: number;
  description?: string | null;
  lastTaskId?: number | null;
}

export interface GraphEdgeInfo {
  from: string;
  to: string;
  kind?: "forward" | "back" | "join";
  traversed?: number;
}

export type FlowNodeData = GraphNodeInfo & {
  selected: boolean;
  onSelect?: (name: string) => void;
  [key: string]: unknown;
};

export const COLUMN = 224;
export const ROW = 96;

/** A canvas tall enough for the tallest column at a readable zoom, within bounds. */
export function graphHeight(nodes: GraphNodeInfo[], min = 220, max = 460): number {
  const counts = new Map<number, number>();
  for (const n of nodes) counts.set(n.generation, (counts.get(n.generation) ?? 0) + 1);
  const tallest = Math.max(1, ...counts.values());
  return Math.min(max, Math.max(min, tallest * ROW + 110));
}

export function layoutNodes(
  nodes: GraphNodeInfo[],
  selected: string | null,
  onSelect?: (name: string) => void,
): Node<FlowNodeData>[] {
  const columns = new Map<number, GraphNodeInfo[]>();
  for (const n of nodes) columns.set(n.generation, [...(columns.get(n.generation) ?? []), n]);
  const tallest = Math.max(1, ...[...columns.values()].map((c) => c.length));
  const out: Node<FlowNodeData>[] = [];
  for (const [generation, column] of columns) {
    const offset = ((tallest - column.length) * ROW) / 2;
    column.forEach((n, i) => {
      out.push({
        id: n.name,
        type: "ym",
        position: { x: generation * COLUMN, y: offset + i * ROW },
        data: { ...n, selected: n.name === selected, onSelect },
        draggable: false,
        connectable: false,
        // xyflow turns pointer events off on a node that is neither draggable nor selectable;
        // the card's own button selects it, so the node must take the click.
        style: { pointerEvents: "all" },
      });
    });
  }
  return out;
}

export function layoutEdges(edges: GraphEdgeInfo[], nodes: GraphNodeInfo[]): Edge[] {
  const gen = new Map(nodes.map((n) => [n.name, n.generation]));
  const state = new Map(nodes.map((n) => [n.name, n.state]));
  return edges.map((e) => {
    const back = e.kind === "back" || (gen.get(e.to) ?? 0) <= (gen.get(e.from) ?? 0);
    const busy = state.get(e.to) === "in_progress" || state.get(e.to) === "ready";
    const count = e.traversed ?? 0;
    return {
      id: `${e.from}->${e.to}`,
      source: e.from,
      target: e.to,
      sourceHandle: back ? "loop-out" : "out",
      targetHandle: back ? "loop-in" : "in",
      type: back ? "smoothstep" : "default",
      animated: busy && count > 0,
      label: count > 0 ? `×${count}` : undefined,
      className: `edge edge-${back ? "back" : (e.kind ?? "forward")} ${count > 0 ? "edge-traversed" : ""}`,
      labelClassName: "edge-label",
      labelBgPadding: [5, 2] as [number, number],
      labelBgBorderRadius: 4,
      data: { traversed: count },
    };
  });
}
