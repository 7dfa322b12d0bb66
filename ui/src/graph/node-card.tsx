// One node of a graph: name, state (coloured like every status in the console), attempts, a
// join's arrivals as `arrived/count`, and how many fan-out branches reached it.
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { statusLabel, toneOf } from "../components/status.tsx";
import type { FlowNodeData } from "./layout.ts";

export function NodeCard({ data }: NodeProps & { data: FlowNodeData }) {
  const tone = data.state ? toneOf(data.state) : "idle";
  const live = data.state === "in_progress" || data.state === "waiting";
  return (
    <div
      className={`gnode tone-${tone} ${data.selected ? "gnode-selected" : ""}`}
      data-node={data.name}
      data-state={data.state ?? "static"}
    >
      <Handle type="target" position={Position.Left} id="in" />
      <Handle type="target" position={Position.Top} id="loop-in" className="handle-loop" />
      <button
        type="button"
        className="gnode-body"
        onClick={() => data.onSelect?.(data.name)}
        disabled={!data.onSelect}
        title={data.description ?? data.name}
      >
        <span className="gnode-head">
          <span className="gnode-name">{data.name}</span>
          {data.join && <span className="gnode-tag">join</span>}
        </span>
        {data.state && (
          <span className="gnode-state">
            <span className={live ? "dot dot-live" : "dot"} aria-hidden="true" />
            {statusLabel(data.state)}
            {data.attempts ? <span className="gnode-meta">{data.attempts}×</span> : null}
          </span>
        )}
        {!data.state && data.description && <span className="gnode-desc">{data.description}</span>}
        {data.arrivals && (
          <span
            className="gnode-arrivals"
            data-arrivals={`${data.arrivals.arrived}/${data.arrivals.count}`}
          >
            <span className="arrivals-bar" aria-hidden="true">
              <span
                style={{
                  width: `${(100 * data.arrivals.arrived) / Math.max(1, data.arrivals.count)}%`,
                }}
              />
            </span>
            {data.arrivals.arrived}/{data.arrivals.count} arrived
          </span>
        )}
        {data.branches !== undefined && data.branches > 1 && (
          <span className="gnode-branches">{data.branches} branches</span>
        )}
      </button>
      <Handle type="source" position={Position.Right} id="out" />
      <Handle type="source" position={Position.Top} id="loop-out" className="handle-loop" />
    </div>
  );
}
