// The engine's lines in the server log. Every line about an attempt carries run_id, task_id,
// workflow, node and attempt; a line about a run carries run_id and, when this process knows it,
// workflow. Steps that happen thousands of times a minute (an attempt started or done, a run
// submitted) are `debug`; what an operator acts on (a retry, a dead letter, a failed run) is
// `warn` or `error`; the rest is `info`.
import type { AttemptFacts, AttemptOutcome, EventRecord } from "../engine/index.ts";
import type { Logger } from "./logger.ts";
import type { RunNames } from "./run-names.ts";

const fieldsOf = (a: AttemptFacts) => ({
  run_id: a.runId,
  task_id: a.taskId,
  workflow: a.workflow,
  node: a.node,
  attempt: a.attempt,
});

export class EngineLog {
  constructor(
    private readonly log: Logger,
    private readonly runs: RunNames,
  ) {}

  attemptStarted(attempt: AttemptFacts): void {
    if (this.log.isLevelEnabled("debug")) {
      this.log.debug({ ...fieldsOf(attempt), pool: attempt.pool }, "attempt started");
    }
  }

  attemptEnded(attempt: AttemptFacts, outcome: AttemptOutcome, seconds: number): void {
    const duration_ms = Math.round(seconds * 1000);
    switch (outcome.kind) {
      case "done":
        if (this.log.isLevelEnabled("debug")) {
          this.log.debug({ ...fieldsOf(attempt), duration_ms }, "attempt done");
        }
        return;
      case "retry":
        this.log.warn(
          { ...fieldsOf(attempt), duration_ms, error: outcome.error },
          "attempt failed; a retry is queued",
        );
        return;
      case "dead_letter":
        this.log.error(
          { ...fieldsOf(attempt), duration_ms, error: outcome.error },
          "attempt dead-lettered",
        );
        return;
      case "stopped":
        this.log.info({ ...fieldsOf(attempt), reason: outcome.reason }, "attempt stopped");
        return;
      case "discarded":
        this.log.info(fieldsOf(attempt), "attempt result discarded: the attempt was revoked");
        return;
      case "unrecorded":
        this.log.error(
          { ...fieldsOf(attempt), error: outcome.error },
          "attempt outcome could not be recorded",
        );
    }
  }

  recovered(taskIds: readonly number[]): void {
    this.log.info(
      { task_ids: taskIds, count: taskIds.length },
      "recovered attempts a stopped server left in progress; they run again",
    );
  }

  registered(workflow: string, pool: string): void {
    this.log.info({ workflow, pool }, "workflow registered");
  }

  stopping(taskIds: readonly number[]): void {
    this.log.info(
      { task_ids: taskIds, count: taskIds.length },
      "engine stopping; live attempts are interrupted and run again after a restart",
    );
  }

  #runFields(event: EventRecord) {
    return { run_id: event.run_id, workflow: this.runs.workflowOf(event.run_id) };
  }

  /** A committed event about a run's life: its submission (debug) or its end. */
  runEvent(event: EventRecord): void {
    const data = event.data;
    // Built only for the lines that use it: every run event passes through here, on the bus (a
    // method, not a closure made per event, which a run from the sources also names per call).
    switch (event.name) {
      case "run.created":
        if (this.log.isLevelEnabled("debug")) {
          this.log.debug({ run_id: event.run_id, workflow: data.workflow }, "run submitted");
        }
        return;
      case "run.completed":
        this.log.info(
          { ...this.#runFields(event), node: data.node, task_id: data.task_id },
          "run completed",
        );
        return;
      case "run.failed":
        this.log.warn(
          {
            ...this.#runFields(event),
            node: data.node,
            task_id: data.task_id,
            error: data.error,
            code: data.code,
          },
          "run failed",
        );
        return;
      case "run.cancelled":
        this.log.info(
          { ...this.#runFields(event), cancelled_tasks: data.cancelled_tasks },
          "run cancelled",
        );
        return;
      case "run.deleted":
        this.log.info({ run_id: event.run_id, workflow: data.workflow }, "run deleted");
    }
  }
}
