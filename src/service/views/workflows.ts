// WorkflowOut: a registered workflow's finalized graph and its pool's load.
import type { Pool, RegisteredWorkflow } from "../../engine/registry.ts";
import type { NodeOut, WorkflowOut } from "../schemas/index.ts";

export function workflowView(wf: RegisteredWorkflow, pool: Pool): WorkflowOut {
  const nodes: Record<string, NodeOut> = {};
  for (const n of wf.graph.nodes.values()) {
    nodes[n.name] = {
      edges: n.edges,
      generation: n.generation,
      label: n.label,
      description: n.description,
      priority: n.priority,
      retries: n.retries,
      timeout: n.timeout,
    };
  }
  return {
    name: wf.name,
    start: wf.graph.start,
    nodes,
    pool: wf.pool,
    capacity: pool.capacity,
    in_flight: pool.inFlight,
    target: wf.target,
    plugin: { actions: [], panels: [] },
  } as WorkflowOut;
}
