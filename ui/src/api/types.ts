// The shapes of the public HTTP API (http-api.md, "Resources and their fields") under the names
// the console uses: aliases of the types generated from the server's /openapi.json
// (src/client/openapi.ts, `npm run generate:api`), so the console reads what the server's
// schemas say and a schema change that breaks a view fails its type check.
import type { components } from "../../../src/client/openapi.ts";

type Schemas = components["schemas"];

export type RunStatus = Schemas["RunStatus"];
export type TaskStatus = Schemas["TaskStatus"];
export type NodeState = Schemas["NodeState"];
/** Any JSON value a workflow produced: payloads, results, outputs, answers. */
export type Json = unknown;

export type BranchFrame = Schemas["BranchFrame"];
export type RunSummary = Schemas["RunSummary"];
export type RunCounts = Schemas["RunCounts"];
export type BulkOut = Schemas["BulkOut"];
export type TaskView = Schemas["TaskView"];
export type RunOutput = Schemas["RunOutput"];
export type RunDetail = Schemas["RunDetail"];
export type SubmissionOut = Schemas["SubmissionOut"];
export type TaskDetail = Schemas["TaskDetail"];
export type LogEntry = Schemas["LogEntry"];
export type RequestOption = Schemas["RequestOption"];
export type RequestView = Schemas["RequestView"];
export type NodeOut = Schemas["NodeOut"];
export type ActionOut = Schemas["ActionOut"];
export type Slot = Schemas["Slot"];
export type PanelOut = Schemas["PanelOut"];
export type WorkflowOut = Schemas["WorkflowOut"];
export type ScheduleOut = Schemas["ScheduleOut"];
export type PluginManifestEntry = Schemas["PluginManifestEntry"];
export type GraphNode = Schemas["GraphNode"];
export type GraphEdge = Schemas["GraphEdge"];
export type GraphOut = Schemas["GraphOut"];
export type StreamChunk = Schemas["StreamChunk"];
export type StreamOut = Schemas["StreamOut"];
export type EventEnvelope = Schemas["EventEnvelope"];
export type EventName = Schemas["EventName"];
export type SourceOut = Schemas["SourceOut"];
export type Health = Schemas["Health"];
export type Me = Schemas["Me"];
export type ValidationIssue = Schemas["ValidationError"];
export type TaskExplain = Schemas["TaskExplain"];
export type ExplainReason = Schemas["ExplainReason"];
export type RejectedSubmission = Schemas["RejectedSubmission"];
export type TaskError = Schemas["TaskError"];
export type FailureGroup = Schemas["FailureGroup"];
