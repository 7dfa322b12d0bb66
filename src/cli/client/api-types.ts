// The API's resources (http-api.md) under the names the commands use, as the server's schema
// has them: aliases of the types generated from /openapi.json (src/client/openapi.ts), so the
// client speaks only the public contract and cannot drift from it.
import type { components } from "../../client/openapi.ts";

type Schemas = components["schemas"];

export type RunSummary = Schemas["RunSummary"];
export type RunStatus = Schemas["RunStatus"];
export type TaskView = Schemas["TaskView"];
export type RunDetail = Schemas["RunDetail"];
export type EventEnvelope = Schemas["EventEnvelope"];
export type EventName = Schemas["EventName"];
export type RequestOption = Schemas["RequestOption"];
export type RequestView = Schemas["RequestView"];
export type LogEntry = Schemas["LogEntry"];
export type WorkflowOut = Schemas["WorkflowOut"];
export type ScheduleOut = Schemas["ScheduleOut"];
export type Ok = Schemas["Ok"];
export type TaskRef = Schemas["TaskRef"];
/** The statuses `set-status` may write (POST /api/tasks/{task_id}/status). */
export type OperatorStatus = Schemas["SetStatusInput"]["status"];
export type RemovedWorkflowOut = Schemas["RemovedWorkflowOut"];
