// A workflow graph drawn with @xyflow/react, read-only: pan and zoom, click a node to select.
// Nodes keep their ids across live updates, so the view never jumps while states change.
import { Background, Controls, type EdgeTypes, type NodeTypes, ReactFlow } from "@xyflow/react";
import { useMemo } from "react";
import {
  type GraphEdgeInfo,
  type GraphNodeInfo,
  graphHeight,
  layoutEdges,
  layoutNodes,
} from "./layout.ts";
import { LoopEdge } from "./loop-edge.tsx";
import { NodeCard } from "./node-card.tsx";

// The zoom buttons sit in the bottom-right corner: the fitted graph keeps clear of their column
// (their 26 px and their 15 px margin), so they never cover the right-hand card.
const FIT = {
  padding: { top: "16px", bottom: "16px", left: "16px", right: "52px" },
  maxZoom: 1.15,
} as const;

const NODE_TYPES: NodeTypes = { ym: NodeCard as NodeTypes[string] };
const EDGE_TYPES: EdgeTypes = { loop: LoopEdge as EdgeTypes[string] };

export function FlowGraph(props: {
  nodes: GraphNodeInfo[];
  edges: GraphEdgeInfo[];
  selected?: string | null;
  onSelect?: (name: string) => void;
  height?: number;
}) {
  const { nodes, edges, selected = null, onSelect } = props;
  const flowNodes = useMemo(
    () => layoutNodes(nodes, selected, onSelect),
    [nodes, selected, onSelect],
  );
  const flowEdges = useMemo(() => layoutEdges(edges, nodes), [edges, nodes]);
  return (
    <div
      className="graph"
      style={{ height: props.height ?? graphHeight(nodes) }}
      data-testid="graph"
    >
      <ReactFlow
        nodes={flowNodes}
        edges={flowEdges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        fitView
        fitViewOptions={FIT}
        minZoom={0.3}
        maxZoom={1.6}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        proOptions={{ hideAttribution: true }}
        colorMode="system"
      >
        <Background gap={18} size={1} color="var(--border)" />
        <Controls showInteractive={false} position="bottom-right" />
      </ReactFlow>
    </div>
  );
}
