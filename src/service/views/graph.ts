// GraphOut: the registered graph of a run's workflow, overlaid with the run's history.
import type { FinalGraph } from "../../authoring/index.ts";
import type { ArrivalRecord, TaskRecord, TaskStatus } from "../../engine/index.ts";
import type { GraphBranch, GraphEdge, GraphNode, GraphOut } from "../schemas/index.ts";

/** NodeState precedence, highest first (http-api.md Enumerations). */
const PRECEDENCE: readonly TaskStatus[] = [
  "in_progress",
  "waiting",
  "ready",
  "dead_letter",
  "failed",
  "done",
  "cancelled",
];

function nodeState(tasks: TaskRecord[]): GraphNode["state"] {
  for (const status of PRECEDENCE) if (tasks.some((t) => t.status === status)) return status;
  return "idle";
}

function maxOf(values: number[]): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  return max;
}

function branchesOf(tasks: TaskRecord[]): GraphBranch[] {
  const groups = new Map<string, GraphBranch>();
  for (const t of tasks) {
    const frame = t.branch.at(-1);
    const key = frame ? `${frame.fanout}:${frame.index}:${t.branch.length}` : "root";
    const group = groups.get(key) ?? { from_task: frame?.fanout ?? null, tasks: [] };
    group.tasks.push(t.id);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function openArrivals(join: string, arrivals: ArrivalRecord[]): GraphNode["arrivals"] {
  const open = arrivals.filter((a) => a.join === join && a.join_task === null);
  if (!open.length) return null;
  const innermost = maxOf(open.map((a) => a.fanout));
  const frame = open.filter((a) => a.fanout === innermost);
  return { arrived: frame.length, count: frame[0].count };
}

/** One `join.arrived` event: the arriving task and the join it reached (late ones included). */
export interface JoinArrival {
  task_id: number;
  join: string;
}

/**
 * `arrivals` are the stored (open and closed) arrival rows; `joined` every `join.arrived`, late
 * ones included, since `traversed` of a join edge counts the events (http-api.md GraphEdge).
 */
export function runGraph(
  graph: FinalGraph,
  tasks: TaskRecord[],
  arrivals: ArrivalRecord[],
  joined: JoinArrival[],
): GraphOut {
  // Grouped by pushing, and maxima by a loop: a long-lived run (a node looping back) has tens of
  // thousands of attempts of one node, so copying the group per task, or spreading it into
  // Math.max (which throws past the engine's argument limit), blocked the server for seconds.
  const byNode = new Map<string, TaskRecord[]>();
  for (const t of tasks) {
    const group = byNode.get(t.node);
    if (group) group.push(t);
    else byNode.set(t.node, [t]);
  }
  const nodes: GraphNode[] = [...graph.nodes.values()].map((n) => {
    const own = byNode.get(n.name) ?? [];
    return {
      name: n.name,
      generation: n.generation,
      join: n.join,
      state: nodeState(own),
      live: own.some(
        (t) => t.status === "in_progress" || t.status === "waiting" || t.status === "done",
      ),
      attempts: own.length,
      arrivals: n.join ? openArrivals(n.name, arrivals) : null,
      branches: branchesOf(own),
      last_task_id: own.length ? maxOf(own.map((t) => t.id)) : null,
    };
  });
  const nodeOf = new Map(tasks.map((t) => [t.id, t.node]));
  const traversed = new Map<string, number>();
  const count = (from: string | undefined, to: string) => {
    if (from === undefined) return;
    const key = `${from}\u0000${to}`;
    traversed.set(key, (traversed.get(key) ?? 0) + 1);
  };
  for (const t of tasks) {
    if (t.lineage?.reason === "transition" && t.lineage.parent != null) {
      count(nodeOf.get(t.lineage.parent), t.node);
    }
  }
  for (const a of joined) count(nodeOf.get(a.task_id), a.join);
  const edges: GraphEdge[] = graph.edges.map((e) => ({
    from: e.from,
    to: e.to,
    kind: e.kind,
    traversed: traversed.get(`${e.from}\u0000${e.to}`) ?? 0,
  }));
  return { nodes, edges };
}
