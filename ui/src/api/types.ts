// The shapes of the public HTTP API (http-api.md, "Resources and their fields"), as this client
// reads them. Only what the console uses is typed; extra fields pass through untouched.

export type RunStatus = "queued" | "running" | "paused" | "completed" | "failed" | "cancelled";
export type TaskStatus =
  | "ready"
  | "in_progress"
  | "waiting"
  | "done"
  | "failed"
  | "dead_letter"
  | "cancelled";
export type NodeState = TaskStatus | "idle";
export type Json = unknown;

export interface BranchFrame {
  count: number;
  fanout: number;
  index: number;
  key?: Json;
}

export interface RunSummary {
  id: string;
  workflow: string;
  title: string;
  status: RunStatus;
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
  status: TaskStatus;
  priority: number;
  explicit: boolean;
  created: string;
  started?: string | null;
  finished?: string | null;
  error?: string | null;
  payload?: Json;
  result?: Json;
  terminal: boolean;
  branch?: BranchFrame[];
  lineage?: { reason?: string; parent?: number | null } | null;
  stats?: Record<string, Json> | null;
}

export interface RunOutput {
  node: string;
  task_id: number;
  branch: BranchFrame[];
  value?: Json;
}

export interface RunDetail extends RunSummary {
  description?: string;
  output?: Json;
  outputs?: RunOutput[];
  stats?: Record<string, number | null>;
  tasks?: TaskView[];
}

export interface SubmissionOut {
  id: number;
  task_id: number;
  created: string;
  payload: Json;
}

export interface TaskDetail extends TaskView {
  submissions: SubmissionOut[];
}

export interface LogEntry {
  id: number;
  run_id: string;
  node: string;
  task_id?: number | null;
  author: "agent" | "engine" | "user";
  kind?: "deliverable" | "note" | "stats" | "failure" | null;
  text: string;
  created: string;
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
  kind: "permission" | "elicitation" | "question";
  mode: "options" | "form" | "text";
  source: "agent" | "node";
  prompt: string;
  options?: RequestOption[] | null;
  schema?: Record<string, Json> | null;
  tool_call?: Record<string, Json> | null;
  pending: boolean;
  stale: boolean;
  answer?: Json;
  answered_by?: "user" | "engine" | null;
  created: string;
  age: number;
}

export interface NodeOut {
  edges: string[];
  generation: number;
  label: string;
  description?: string | null;
  priority?: number | null;
  retries?: number | null;
  timeout?: number | null;
}

export interface ActionOut {
  name: string;
  title: string;
  scope: Slot;
  confirm: boolean;
  schema: Record<string, Json>;
}

export type Slot = "run" | "task" | "node" | "workflow" | "global";

export interface PanelOut {
  name: string;
  slot: Slot;
  placement: "pane" | "card";
  kind: string;
  scope: Slot;
  source?: string | null;
  node?: string | null;
  element?: string | null;
  refresh_on: string[];
}

export interface WorkflowOut {
  name: string;
  start: string;
  nodes: Record<string, NodeOut>;
  pool: string;
  capacity: number;
  in_flight: number;
  target?: string | null;
  plugin: { actions: ActionOut[]; panels: PanelOut[] };
}

export interface PluginManifestEntry {
  workflow: string;
  actions: ActionOut[];
  panels: PanelOut[];
  assets: string[];
}

export interface GraphNode {
  name: string;
  generation: number;
  join: boolean;
  state: NodeState;
  live: boolean;
  attempts: number;
  arrivals?: { arrived: number; count: number } | null;
  branches?: { from_task: number | null; tasks: number[] }[];
  last_task_id?: number | null;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: "forward" | "back" | "join";
  traversed: number;
}

export interface GraphOut {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export interface StreamChunk {
  seq: number;
  kind: "text" | "thought" | "tool_call" | "tool_result" | "notice";
  text: string;
  created: string;
}

export interface StreamOut {
  chunks: StreamChunk[];
  last_seq: number;
  live: boolean;
}

export interface EventEnvelope {
  id?: number | null;
  name: string;
  created: string;
  run_id?: string | null;
  task_id?: number | null;
  data: Record<string, Json>;
}

export interface SourceOut {
  file: string;
  source: string;
  nodes: Record<string, { line: number }>;
}

export interface Me {
  auth: "off" | "token";
  authenticated: boolean;
  version: string;
  started_at: string;
  features: string[];
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}
