// Places a workflow graph for drawing: one column per generation (BFS depth from the start),
// nodes of a column stacked and centred. Edges into an earlier or equal generation are loops,
// drawn round the columns they span (loop-edge.tsx) rather than straight through them.
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
/** A card's width: `.gnode` in run.css. The gap between two columns is COLUMN - NODE_WIDTH. */
export const NODE_WIDTH = 172;
/** How far above the top card a loop's lane runs, and how far apart two loops' lanes are. */
const LANE = 30;
const LANE_STEP = 16;

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
  const places = placeNodes(nodes);
  return nodes.map((n) => ({
    id: n.name,
    type: "ym",
    position: { x: places.get(n.name)!.x, y: places.get(n.name)!.y },
    data: { ...n, selected: n.name === selected, onSelect },
    draggable: false,
    connectable: false,
    // xyflow turns pointer events off on a node that is neither draggable nor selectable;
    // the card's own button selects it, so the node must take the click.
    style: { pointerEvents: "all" },
  }));
}

interface Place {
  x: number;
  y: number;
  /** Whether no card sits above this one in its column (a loop can leave or enter by the top). */
  top: boolean;
}

/** Where each card goes: its column's x, its row's y (columns centred on the tallest one). */
export function placeNodes(nodes: GraphNodeInfo[]): Map<string, Place> {
  const columns = new Map<number, GraphNodeInfo[]>();
  for (const n of nodes) columns.set(n.generation, [...(columns.get(n.generation) ?? []), n]);
  const tallest = Math.max(1, ...[...columns.values()].map((c) => c.length));
  const places = new Map<string, Place>();
  for (const [generation, column] of columns) {
    const offset = ((tallest - column.length) * ROW) / 2;
    column.forEach((n, i) => {
      places.set(n.name, { x: generation * COLUMN, y: offset + i * ROW, top: i === 0 });
    });
  }
  return places;
}

/** The route of a loop: its handles, its lane above the spanned columns, the gaps it uses. */
function loopRoute(
  from: string,
  to: string,
  nodes: GraphNodeInfo[],
  places: Map<string, Place>,
  index: number,
) {
  const [a, b] = [places.get(from), places.get(to)];
  if (!a || !b) return null;
  const [lo, hi] = [Math.min(a.x, b.x), Math.max(a.x, b.x)];
  const spanned = nodes.map((n) => places.get(n.name)!).filter((p) => p.x >= lo && p.x <= hi);
  const lane = Math.min(...spanned.map((p) => p.y)) - LANE - index * LANE_STEP;
  // A loop onto itself leaves by the side and comes back by the other side, or it would be a
  // line up and down the same spot.
  const self = from === to;
  const exitX = a.top && !self ? null : a.x + NODE_WIDTH + (COLUMN - NODE_WIDTH) / 2;
  const entryX = b.top && !self ? null : b.x - (COLUMN - NODE_WIDTH) / 2;
  return {
    sourceHandle: exitX === null ? "loop-out" : "out",
    targetHandle: entryX === null ? "loop-in" : "in",
    data: { lane, exitX, entryX },
  };
}

export function layoutEdges(edges: GraphEdgeInfo[], nodes: GraphNodeInfo[]): Edge[] {
  const gen = new Map(nodes.map((n) => [n.name, n.generation]));
  const state = new Map(nodes.map((n) => [n.name, n.state]));
  const places = placeNodes(nodes);
  let loops = 0;
  return edges.map((e) => {
    const back = e.kind === "back" || (gen.get(e.to) ?? 0) <= (gen.get(e.from) ?? 0);
    const route = back ? loopRoute(e.from, e.to, nodes, places, loops++) : null;
    const busy = state.get(e.to) === "in_progress" || state.get(e.to) === "ready";
    const count = e.traversed ?? 0;
    return {
      id: `${e.from}->${e.to}`,
      source: e.from,
      target: e.to,
      sourceHandle: route?.sourceHandle ?? "out",
      targetHandle: route?.targetHandle ?? "in",
      type: route ? "loop" : back ? "smoothstep" : "default",
      animated: busy && count > 0,
      label: count > 0 ? `×${count}` : undefined,
      className: `edge edge-${back ? "back" : (e.kind ?? "forward")} ${count > 0 ? "edge-traversed" : ""}`,
      labelClassName: "edge-label",
      labelBgPadding: [5, 2] as [number, number],
      labelBgBorderRadius: 4,
      data: { traversed: count, ...route?.data },
    };
  });
}
