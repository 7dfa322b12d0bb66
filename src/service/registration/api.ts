// Hot registration as the HTTP layer sees it (http-api.md Workflows 2, 4 and 5). An application
// built without a registrar answers these endpoints with 503 `registration_unavailable`.
import type {
  RegisterWorkflow,
  ReloadWorkflow,
  RemovedWorkflowOut,
  WorkflowOut,
} from "../schemas/index.ts";

/** An answer, and the configuration file a `persist` wrote (null when nothing was written). */
export interface Registered<T> {
  value: T;
  persisted: string | null;
}

export interface WorkflowRegistrar {
  register(body: RegisterWorkflow): Promise<Registered<WorkflowOut>>;
  reload(name: string, body: ReloadWorkflow): Promise<Registered<WorkflowOut>>;
  remove(name: string, options: { persist: boolean }): Promise<Registered<RemovedWorkflowOut>>;
}
