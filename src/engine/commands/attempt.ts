// The attempt API: what the agent runner behind `ctx.agent` may do with the live attempt it
// runs on, bound to that attempt. Every write is an engine command that checks the attempt's
// claim where the attempt acts on its own behalf, so an attempt that lost its claim (cancel,
// move, delete, timeout) records nothing more. The agent's own calls under its task token
// (submit, ask, log) are the commands of agent-submit.ts, agent-ask.ts and agent-log.ts, which
// the service runs for the token's attempt.
import { awaitAnswer } from "../ask.ts";
import type { EventRecord, RequestRecord, SubmissionRecord, TaskRecord } from "../domain.ts";
import type { AttemptHandle } from "../task-context.ts";
import {
  abandonPermission,
  decidePermission,
  openPermission,
  type PermissionFields,
} from "./agent-permission.ts";
import { endAgentSession, type SessionEnd } from "./agent-session.ts";
import { announceRepair, type RepairReason } from "./agent-submit.ts";
import { appendTranscript, type TranscriptChunk } from "./agent-transcript.ts";
import { issueTaskToken } from "./attempt-token.ts";

/** What the runner hears about its attempt while a session runs. */
export interface AttemptWatcher {
  /** A submission was refused by the output model (the next repair prompt says why). */
  rejected(errors: unknown): void;
  /** The attempt's outcome is recorded while the call still runs (a body that did not await it). */
  ended(): void;
}

const ATTEMPT_ENDED = new Set(["task.done", "task.failed", "task.dead_lettered"]);

export class AttemptCommands {
  constructor(private readonly h: AttemptHandle) {}

  /** The attempt's row as it was claimed. */
  get task(): TaskRecord {
    return this.h.task;
  }

  /** Aborted when the attempt is stopped (cancel, move, node timeout, shutdown) or ends. */
  get signal(): AbortSignal {
    return this.h.live.abort.signal;
  }

  /** Mints the attempt's task token (its hash replaces any earlier one). */
  issueToken(): Promise<string> {
    return issueTaskToken(this.h.core, this.h.task);
  }

  /** The attempt's submissions, oldest first. */
  submissions(): Promise<SubmissionRecord[]> {
    return this.h.core.store.listSubmissions(this.h.task.id);
  }

  announceRepair(reason: RepairReason, turn: number): Promise<void> {
    return announceRepair(this.h.core, this.h.task, reason, turn);
  }

  appendTranscript(batch: readonly TranscriptChunk[]): Promise<void> {
    return appendTranscript(this.h.core, this.h.task, batch);
  }

  /** See agent-permission.ts: false when nothing was recorded (the attempt was stopped). */
  decidePermission(fields: PermissionFields, optionId: string | null): Promise<boolean> {
    return decidePermission(this.h, fields, optionId);
  }

  openPermission(fields: PermissionFields): Promise<RequestRecord | null> {
    return openPermission(this.h, fields);
  }

  /**
   * Parks the attempt on `req` until a person answers it, then resumes it (engine/ask.ts);
   * `signal` ends the wait early, leaving the task waiting for `abandonPermission` to settle.
   */
  awaitAnswer(req: RequestRecord, signal: AbortSignal): Promise<RequestRecord> {
    return awaitAnswer(this.h, req, signal);
  }

  abandonPermission(req: RequestRecord): Promise<void> {
    return abandonPermission(this.h, req);
  }

  /** Records the session's end and revokes the task token (agent-session.ts). */
  endSession(end: SessionEnd): Promise<void> {
    return endAgentSession(this.h, end);
  }

  /** Starts listening to the attempt's committed events; answers the function that stops it. */
  watch(watcher: AttemptWatcher): () => void {
    const taskId = this.h.task.id;
    return this.h.core.bus.subscribe((e: EventRecord) => {
      if (e.task_id !== taskId) return;
      if (e.name === "submission.rejected") watcher.rejected(e.data.errors);
      else if (ATTEMPT_ENDED.has(e.name)) watcher.ended();
    });
  }
}
