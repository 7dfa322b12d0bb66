// What the agent runner declared for an attempt: its ask policy and its output model. Kept in
// memory beside the live attempt: both die with the attempt, exactly like its token.
import type { ValidateFunction } from "ajv";
import { compileJsonSchema } from "../../lib/json-schema.ts";

export interface AgentSession {
  ask: "never" | "http";
  outputSchema: Record<string, unknown> | null;
  validate: ValidateFunction | null;
}

export class AgentSessions {
  readonly #byTask = new Map<number, AgentSession>();

  open(taskId: number, ask: AgentSession["ask"], outputSchema: AgentSession["outputSchema"]) {
    const session = {
      ask,
      outputSchema,
      // No defaults filled in: a submission is stored exactly as it was accepted.
      validate: outputSchema ? compileJsonSchema(outputSchema, { useDefaults: false }) : null,
    };
    this.#byTask.set(taskId, session);
    return session;
  }

  get(taskId: number): AgentSession | undefined {
    return this.#byTask.get(taskId);
  }

  close(taskId: number): void {
    this.#byTask.delete(taskId);
  }
}
