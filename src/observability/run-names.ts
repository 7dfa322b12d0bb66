// The workflow of each open run this process has seen (submitted here, or running an attempt
// here), so that lines and spans about a run's end can name its workflow: `run.completed` and
// its siblings carry only the run id. A run ended (or deleted) is forgotten, so the map holds
// open runs only.
import type { EventRecord } from "../engine/index.ts";

const ENDINGS = new Set(["run.completed", "run.failed", "run.cancelled", "run.deleted"]);

export class RunNames {
  readonly #workflows = new Map<string, string>();

  note(runId: string, workflow: string): void {
    this.#workflows.set(runId, workflow);
  }

  workflowOf(runId: string | null): string | undefined {
    return runId === null ? undefined : this.#workflows.get(runId);
  }

  /** Learns from `run.created` and forgets on a run's end; call after reading what it needs. */
  follow(event: EventRecord): void {
    if (event.run_id === null) return;
    if (event.name === "run.created") this.note(event.run_id, String(event.data.workflow));
    else if (ENDINGS.has(event.name)) this.#workflows.delete(event.run_id);
  }
}

export const isRunEnd = (name: string) => ENDINGS.has(name);
