// The graph of one run: the registered nodes and edges with this run's history laid over them.
import { z } from "zod";
import { EdgeKind, int, NodeState, named } from "./common.ts";

export const Arrivals = named("Arrivals", z.object({ arrived: int(), count: int() }));
export type Arrivals = z.infer<typeof Arrivals>;

export const GraphBranch = named(
  "GraphBranch",
  z.object({
    from_task: int().nullable(),
    tasks: z.array(int()),
  }),
);
export type GraphBranch = z.infer<typeof GraphBranch>;

export const GraphNode = named(
  "GraphNode",
  z.object({
    name: z.string(),
    generation: int(),
    join: z.boolean(),
    state: NodeState,
    live: z.boolean(),
    attempts: int(),
    arrivals: Arrivals.nullable().optional(),
    branches: z.array(GraphBranch).optional(),
    last_task_id: int().nullable().optional(),
  }),
);
export type GraphNode = z.infer<typeof GraphNode>;

export const GraphEdge = named(
  "GraphEdge",
  z.object({
    from: z.string(),
    to: z.string(),
    kind: EdgeKind,
    traversed: int(),
  }),
);
export type GraphEdge = z.infer<typeof GraphEdge>;

export const GraphOut = named(
  "GraphOut",
  z.object({
    nodes: z.array(GraphNode),
    edges: z.array(GraphEdge),
  }),
);
export type GraphOut = z.infer<typeof GraphOut>;
