// The engine's commands: every state change an operator, the registrar or a plugin asks for.
//
// Shape. One `Commands` object per engine, built over its `EngineCore` and exposed as
// `engine.commands` (`engine.commands.pauseRun(runId)`). Each method is one command: it reads
// the current state inside its own unit of work, refuses with an `EngineError` (errors.ts) when
// the change cannot be made, writes through the unit of work, emits its events, and wakes the
// dispatcher itself when it put work in front of it. Callers outside the engine never touch the
// unit of work, the store's writer or the dispatcher; they call a command and map its refusal
// (the service reads EngineError codes through `fromDomain`).
//
// The commands live in one file per family, as functions of the core, so a family reads top to
// bottom without the class: runs.ts, tasks.ts, requests.ts, registration.ts, plugins.ts.
import type { EngineCore } from "../core.ts";
import type { RequestRecord, ScheduleRecord } from "../domain.ts";
import type { RegisteredWorkflow } from "../registry.ts";
import type { Scheduler } from "../scheduler.ts";
import { type BulkAction, type BulkResult, type BulkTarget, bulkRuns } from "./bulk.ts";
import { type PublishScope, publishPluginEvent } from "./plugins.ts";
import { type BindEvent, bindWorkflow, syncRegistrations, unbindWorkflow } from "./registration.ts";
import { type AnswerAuthor, type AnswerInput, answerRequest } from "./requests.ts";
import * as runs from "./runs.ts";
import * as schedules from "./schedules.ts";
import * as tasks from "./tasks.ts";

export type { BulkAction, BulkRefusal, BulkResult, BulkTarget } from "./bulk.ts";
export type { PublishScope } from "./plugins.ts";
export type { BindEvent } from "./registration.ts";
export type { AnswerAuthor, AnswerInput } from "./requests.ts";
export type {
  EditInput,
  IdempotencyInput,
  PositionInput,
  SubmitInput,
  SubmitOnceResult,
} from "./runs.ts";
export type { ScheduleInput, SchedulePatch } from "./schedules.ts";
export type { OperatorStatus } from "./tasks.ts";

/**
 * Who asked for a command: the authenticated operator's name, recorded as `operator` on the
 * events that name the act, the work-log entry and the answer; null or absent for the engine,
 * an agent, a plugin or a server without auth.
 */
export type Operator = string | null | undefined;

export class Commands {
  readonly #core: EngineCore;
  readonly #scheduler: Scheduler;

  constructor(core: EngineCore, scheduler: Scheduler) {
    this.#core = core;
    this.#scheduler = scheduler;
  }

  // Schedules.

  /** Creates a schedule (source `api`). */
  createSchedule(input: schedules.ScheduleInput): Promise<ScheduleRecord> {
    return schedules.createSchedule(this.#core, this.#scheduler, input);
  }

  /** Changes a schedule (a configured one: `enabled` only). */
  updateSchedule(name: string, patch: schedules.SchedulePatch): Promise<ScheduleRecord> {
    return schedules.updateSchedule(this.#core, this.#scheduler, name, patch);
  }

  /** Deletes an API schedule and its fires. */
  deleteSchedule(name: string): Promise<void> {
    return schedules.deleteSchedule(this.#core, this.#scheduler, name);
  }

  /** Brings the configuration's schedules into the store (at start, before `engine.start`). */
  syncSchedules(configured: readonly schedules.ScheduleInput[]): Promise<void> {
    return schedules.syncSchedules(this.#core, configured);
  }

  // Runs.

  /** Queues a run of `workflow`; answers its id. */
  submitRun(workflow: string, input: runs.SubmitInput, operator?: Operator): Promise<string> {
    return runs.submitRun(this.#core, workflow, input, operator);
  }

  /**
   * Queues a run under an `Idempotency-Key`: within the window, the same key with the same
   * workflow and body answers the run it made first (`replayed`); with another, `conflict`.
   */
  /** Queues one run per input in one unit of work (all or none); answers the ids in order. */
  submitRuns(
    workflow: string,
    inputs: readonly runs.SubmitInput[],
    operator?: Operator,
  ): Promise<string[]> {
    return runs.submitRuns(this.#core, workflow, inputs, operator);
  }

  submitRunOnce(
    workflow: string,
    input: runs.SubmitInput,
    idem: runs.IdempotencyInput,
    operator?: Operator,
  ): Promise<runs.SubmitOnceResult> {
    return runs.submitRunOnce(this.#core, workflow, input, idem, operator);
  }

  editRun(runId: string, input: runs.EditInput, operator?: Operator): Promise<void> {
    return runs.editRun(this.#core, runId, input, operator);
  }

  /** Answers how many outstanding attempts were stopped. */
  cancelRun(runId: string, operator?: Operator): Promise<number> {
    return runs.cancelRun(this.#core, runId, operator);
  }

  deleteRun(runId: string, operator?: Operator): Promise<void> {
    return runs.deleteRun(this.#core, runId, operator);
  }

  pauseRun(runId: string, operator?: Operator): Promise<void> {
    return runs.pauseRun(this.#core, runId, operator);
  }

  resumeRun(runId: string, operator?: Operator): Promise<void> {
    return runs.resumeRun(this.#core, runId, operator);
  }

  /** Answers the run's 1-based place in the dispatch list. */
  positionRun(runId: string, input: runs.PositionInput, operator?: Operator): Promise<number> {
    return runs.positionRun(this.#core, runId, input, operator);
  }

  /** An operator's note in the run's work log; answers the entry's id. */
  appendRunLog(runId: string, text: string, operator?: Operator): Promise<number> {
    return runs.appendOperatorLog(this.#core, runId, text, operator);
  }

  /**
   * Cancels, deletes or retries the failed attempts of many runs (bulk.ts): each run by its
   * single operation's rules, refusals answered per run, writes in chunks.
   */
  bulkRuns(action: BulkAction, target: BulkTarget, operator?: Operator): Promise<BulkResult> {
    return bulkRuns(this.#core, action, target, operator);
  }

  // Tasks: each answers the id of the attempt it enqueued.

  rerunNode(runId: string, node: string, operator?: Operator): Promise<number> {
    return tasks.rerunNode(this.#core, runId, node, operator);
  }

  moveTask(taskId: number, node: string, operator?: Operator): Promise<number> {
    return tasks.moveTask(this.#core, taskId, node, operator);
  }

  retryTask(taskId: number, operator?: Operator): Promise<number> {
    return tasks.retryTask(this.#core, taskId, operator);
  }

  setTaskStatus(taskId: number, status: tasks.OperatorStatus, operator?: Operator): Promise<void> {
    return tasks.setTaskStatus(this.#core, taskId, status, operator);
  }

  // Requests.

  /** Answers the request as now stored. */
  answerRequest(
    requestId: number,
    input: AnswerInput,
    author: AnswerAuthor = "user",
    operator?: Operator,
  ): Promise<RequestRecord> {
    return answerRequest(this.#core, requestId, input, author, operator);
  }

  // Registration.

  /** Registers (`workflow.registered`) or replaces (`workflow.replaced`) `wf`. */
  bindWorkflow(wf: RegisteredWorkflow, event: BindEvent): Promise<void> {
    return bindWorkflow(this.#core, wf, event);
  }

  /** Unregisters `name`; answers the ids of its attempts in flight, which are interrupted. */
  unbindWorkflow(name: string): Promise<number[]> {
    return unbindWorkflow(this.#core, name);
  }

  /** Brings the registrations table in line with the registry (at start). */
  syncRegistrations(options?: { keepOthers?: boolean }): Promise<void> {
    return syncRegistrations(this.#core, options);
  }

  // Plugins.

  /** Announces `plugin.<workflow>.<name>` with `data`, in `scope`. */
  publishPluginEvent(
    workflow: string,
    name: unknown,
    data: unknown,
    scope: PublishScope,
  ): Promise<void> {
    return publishPluginEvent(this.#core, workflow, name, data, scope);
  }
}
