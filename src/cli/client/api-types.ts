// The parts of the API's resources (http-api.md) that the client reads. Declared here rather
// than imported from the server, because the client speaks only the public contract.

export interface RunSummary {
  id: string;
  workflow: string;
  title: string;
  status: string;
  position: number;
  created: string;
  updated: string;
  current_nodes?: string[];
  pending_requests?: number;
  unregistered?: boolean;
}

export interface TaskView {
  id: number;
  run_id: string;
  node: string;
  attempt: number;
  status: string;
  created: string;
  started?: string | null;
  finished?: string | null;
  error?: string | null;
  terminal: boolean;
}

export interface RunDetail extends RunSummary {
  description?: string;
  output?: unknown;
  stats?: Record<string, number | null | undefined>;
  tasks?: TaskView[];
}

export interface EventEnvelope {
  id?: number | null;
  name: string;
  created: string;
  run_id?: string | null;
  task_id?: number | null;
  data: Record<string, unknown>;
}

export interface RequestOption {
  option_id: string;
  name: string;
  kind?: string | null;
}

export interface RequestView {
  id: number;
  run_id: string;
  task_id: number;
  node: string;
  kind: string;
  mode: "options" | "form" | "text";
  source: string;
  prompt: string;
  options?: RequestOption[] | null;
  schema?: Record<string, unknown> | null;
  tool_call?: Record<string, unknown> | null;
  pending: boolean;
  stale: boolean;
  answer?: unknown;
  answered_by?: string | null;
  created: string;
  age: number;
}

export interface LogEntry {
  id: number;
  run_id: string;
  node: string;
  task_id?: number | null;
  author: string;
  kind?: string | null;
  text: string;
  created: string;
}

export interface WorkflowOut {
  name: string;
  start: string;
  nodes: Record<string, { edges: string[] }>;
  pool: string;
  capacity: number;
  in_flight: number;
  target?: string | null;
}

export interface Ok {
  ok: boolean;
  note?: string | null;
}

export interface TaskRef {
  task_id: number;
}

export interface RemovedWorkflowOut {
  workflow: string;
  task_ids: number[];
}
