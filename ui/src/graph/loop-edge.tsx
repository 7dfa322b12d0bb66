// A back-edge (a loop to an earlier or the same column) drawn round the graph rather than
// through it: up to a lane above every card of the columns it spans, across, and down into its
// target. It leaves its source by the top when nothing sits above the source in its column,
// otherwise by the right side and up the gap after the column; it enters its target the same
// way (the top, or down the gap before the column and in from the left). So it only ever runs
// through empty space: between columns or above them. layoutEdges (layout.ts) picks the handles
// and computes the lane and gaps, since it knows where every card is.
import { BaseEdge, type Edge, type EdgeProps } from "@xyflow/react";

export interface LoopData {
  /** The y of the lane above the columns the loop spans. */
  lane: number;
  /** The x of the gap after the source's column, when it leaves by the side. */
  exitX: number | null;
  /** The x of the gap before the target's column, when it enters by the side. */
  entryX: number | null;
  traversed: number;
  [key: string]: unknown;
}

type Point = [number, number];

/** A polyline with its corners rounded (radius at most half of either segment). */
export function roundedPath(points: Point[], radius = 10): string {
  const [first, ...rest] = points;
  let d = `M${first[0]},${first[1]}`;
  rest.forEach((p, i) => {
    const next = rest[i + 1];
    const prev = points[i];
    if (!next) {
      d += ` L${p[0]},${p[1]}`;
      return;
    }
    const r = Math.min(
      radius,
      Math.hypot(p[0] - prev[0], p[1] - prev[1]) / 2,
      Math.hypot(next[0] - p[0], next[1] - p[1]) / 2,
    );
    const toward = (q: Point, dist: number): Point => {
      const len = Math.hypot(q[0] - p[0], q[1] - p[1]) || 1;
      return [p[0] + ((q[0] - p[0]) / len) * dist, p[1] + ((q[1] - p[1]) / len) * dist];
    };
    const [a, b] = [toward(prev, r), toward(next, r)];
    d += ` L${a[0]},${a[1]} Q${p[0]},${p[1]} ${b[0]},${b[1]}`;
  });
  return d;
}

export function LoopEdge(props: EdgeProps<Edge<LoopData>>) {
  const { sourceX, sourceY, targetX, targetY, data } = props;
  const lane = data?.lane ?? Math.min(sourceY, targetY) - 28;
  const exitX = data?.exitX ?? null;
  const entryX = data?.entryX ?? null;
  const points: Point[] = [[sourceX, sourceY]];
  if (exitX !== null) points.push([exitX, sourceY], [exitX, lane]);
  else points.push([sourceX, lane]);
  if (entryX !== null) points.push([entryX, lane], [entryX, targetY], [targetX, targetY]);
  else points.push([targetX, lane], [targetX, targetY]);
  const from = exitX ?? sourceX;
  const to = entryX ?? targetX;
  return (
    <BaseEdge
      id={props.id}
      path={roundedPath(points)}
      labelX={(from + to) / 2}
      labelY={lane}
      label={props.label}
      labelStyle={props.labelStyle}
      labelShowBg={props.labelShowBg}
      labelBgStyle={props.labelBgStyle}
      labelBgPadding={props.labelBgPadding}
      labelBgBorderRadius={props.labelBgBorderRadius}
      markerEnd={props.markerEnd}
      style={props.style}
      interactionWidth={props.interactionWidth}
    />
  );
}
