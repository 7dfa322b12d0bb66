// WorkflowOut: a registered workflow's finalized graph, its pool's load and its plugin.
import type { Pool, RegisteredWorkflow } from "../../engine/index.ts";
import { pluginOf, workflowPlugin } from "../../plugins/manifest.ts";
import { runInputModel } from "../run-input.ts";
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
  const view = {
    name: wf.name,
    start: wf.graph.start,
    nodes,
    pool: wf.pool,
    capacity: pool.capacity,
    in_flight: pool.inFlight,
    target: wf.target,
    plugin: workflowPlugin(pluginOf(wf)),
  } as WorkflowOut;
  // Absent when the start node declares no input, so such a workflow answers as before.
  const input = runInputModel(wf);
  if (input) view.input_schema = input.schema;
  return view;
}
