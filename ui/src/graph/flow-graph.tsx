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
        fitViewOptions={{ padding: 0.12, maxZoom: 1.15 }}
        minZoom={0.3}
        maxZoom={1.6}
        nodesDraggable={false}
        nodesConnectable={false}
        nodesFocusable={false}
        edgesFocusable={false}
        elementsSelectable={false}
        proOptions={{ hideAttribution: true }}
        colorMode="light"
      >
        <Background gap={18} size={1} color="#e2e8f0" />
        <Controls showInteractive={false} position="bottom-right" />
      </ReactFlow>
    </div>
  );
}
