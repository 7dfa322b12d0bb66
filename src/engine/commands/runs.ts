// Run commands: submit, edit, cancel, delete, pause, resume, position, and the operator's note
// in the run's work log.

import type { EngineCore } from "../core.ts";
import {
  type IdempotencyRecord,
  type Json,
  OUTSTANDING,
  type RunRecord,
  type TaskRecord,
  TERMINAL_RUN_STATUSES,
} from "../domain.ts";
import { type EnqueueSpec, emitEnqueued, enqueueTask, insertEnqueued } from "../enqueue.ts";
import { refused } from "../errors.ts";
import type { RegisteredWorkflow } from "../registry.ts";
import { newRunId } from "../run-ids.ts";
import type { SlotReservation } from "../slot-claims.ts";
import type { Work } from "../unit-of-work.ts";
import { appendLog } from "../work-log.ts";
import { cancelAttempt } from "./cancel.ts";
import { notRegistered, requireRun } from "./lookups.ts";

export interface SubmitInput {
  title: string;
  description?: string;
  /** The run's input, handed to the start node in its payload; absent or null: none. */
  input?: Json;
}

/** A submit's `Idempotency-Key` and the hash of its canonical body (the service computes it). */
export interface IdempotencyInput {
  key: string;
  bodyHash: string;
}

/** What a keyed submit answers: the run, and whether an earlier submit with the key made it. */
export interface SubmitOnceResult {
  runId: string;
  replayed: boolean;
}

/** Fields to change; null or absent ones stay as they are. */
export interface EditInput {
  title?: string | null;
  description?: string | null;
}

/** One place up or down (`direction`), or a zero-based `index` in the dispatch list. */
export interface PositionInput {
  direction?: -1 | 1 | null;
  index?: number | null;
}

/** Queues a run of `workflow` at its start node; answers the run id. */
export async function submitRun(
  core: EngineCore,
  workflow: string,
  input: SubmitInput,
  operator: string | null = null,
): Promise<string> {
  const reg = core.registry.workflows.get(workflow);
  if (!reg) throw notRegistered(workflow);
  const description = input.description ?? "";
  // A free slot is filled by this transaction rather than by a claim transaction after it.
  const slot = core.slots.reserve(reg.pool);
  let tookOwn = false;
  try {
    const payload = { title: input.title, description, input: input.input ?? null };
    const submitted = await insertSubmitted(core, reg, payload, slot, { operator });
    tookOwn = submitted.tookOwn;
    return submitted.runId;
  } finally {
    slot?.settle();
    // Claiming its own start task left nothing new for the dispatcher to look at.
    if (!tookOwn) core.wake(reg.pool);
  }
}

// Expired keys deleted by each keyed submit: a few, oldest first through an index, so the table
// stays near the keys of one window without a sweep.
const EXPIRE_BATCH = 16;

/** The key was stored by another submit after this one looked it up: its unit rolls back. */
class KeyTaken extends Error {}

/** The due moment was fired already (by another server, or before a crash): nothing is written. */
class FireTaken extends Error {}

/** A schedule's due moment, fired by the unit of work that submits its run. */
export interface ScheduleFireInput {
  schedule: string;
  scheduledAt: number;
}

/**
 * Submits the run of one schedule fire: the fire record (unique on schedule and due moment) and
 * the run commit together, so a crash loses neither and a second fire of the moment (another
 * server, a re-fire after a crash) stores nothing. Answers the run id, or null when the moment
 * was fired already.
 */
export async function submitScheduledRun(
  core: EngineCore,
  workflow: string,
  input: SubmitInput,
  fire: ScheduleFireInput,
): Promise<string | null> {
  const reg = core.registry.workflows.get(workflow);
  if (!reg) throw notRegistered(workflow);
  const slot = core.slots.reserve(reg.pool);
  let quiet = true;
  try {
    const payload = { title: input.title, description: "", input: input.input ?? null };
    const done = await insertSubmitted(core, reg, payload, slot, { fire });
    quiet = done.tookOwn;
    return done.runId;
  } catch (err) {
    if (err instanceof FireTaken) return null;
    throw err;
  } finally {
    slot?.settle();
    if (!quiet) core.wake(reg.pool);
  }
}

/**
 * `submitRun` under an `Idempotency-Key`. Within the window, a key stored by an earlier submit
 * answers that submit's run when the workflow and body hash match, and is refused (`conflict`)
 * otherwise; else the run is created and the key stored by the same unit of work. The key's
 * uniqueness in the store decides a race: the loser's unit rolls back and it reads the winner's
 * key again. A submit without a key never comes here (its path reads nothing more).
 */
export async function submitRunOnce(
  core: EngineCore,
  workflow: string,
  input: SubmitInput,
  idem: IdempotencyInput,
  operator: string | null = null,
): Promise<SubmitOnceResult> {
  const reg = core.registry.workflows.get(workflow);
  if (!reg) throw notRegistered(workflow);
  const description = input.description ?? "";
  for (let tries = 0; ; tries++) {
    const slot = core.slots.reserve(reg.pool);
    let quiet = false;
    try {
      const payload = { title: input.title, description, input: input.input ?? null };
      const done = await insertSubmitted(core, reg, payload, slot, { idem, operator });
      quiet = done.tookOwn || done.replayed;
      return { runId: done.runId, replayed: done.replayed };
    } catch (err) {
      quiet = true;
      // Only another submit's commit between the look-up and the insert gets here, so a second
      // look-up finds its key (unless it was deleted with its run meanwhile: then try again).
      if (!(err instanceof KeyTaken) || tries >= 3) throw err;
    } finally {
      slot?.settle();
      if (!quiet) core.wake(reg.pool);
    }
  }
}

function checkKey(found: IdempotencyRecord, workflow: string, idem: IdempotencyInput): void {
  if (found.workflow !== workflow) {
    throw refused(
      `Idempotency-Key ${JSON.stringify(idem.key)} was used for a run of workflow ${found.workflow}; a key names one request.`,
      { run_id: found.run_id },
    );
  }
  if (found.body_hash !== idem.bodyHash) {
    throw refused(
      `Idempotency-Key ${JSON.stringify(idem.key)} was used with a different request body; a key names one request.`,
      { run_id: found.run_id },
    );
  }
}

async function insertSubmitted(
  core: EngineCore,
  reg: RegisteredWorkflow,
  payload: RunPayload,
  slot: SlotReservation | null,
  how: { idem?: IdempotencyInput; fire?: ScheduleFireInput; operator?: string | null },
): Promise<{ runId: string; tookOwn: boolean; replayed: boolean }> {
  const workflow = reg.name;
  const { idem, fire } = how;
  // A plain submit shares its unit with the others of its operator that arrive with it; one
  // with a key or a schedule's fire, whose conflicts its caller retries, has a unit of its own.
  const unit = <T>(fn: (work: Work) => Promise<T>, operator: string | null) =>
    idem || fire ? core.uow.run(fn, operator) : core.uow.grouped(fn, { lane: "submits", operator });
  const done = await unit(async (work) => {
    const expiredBefore = work.now - core.idempotencyWindowMs;
    if (idem) {
      const found = await work.tx.getIdempotencyKey(idem.key);
      if (found && found.created >= expiredBefore) {
        checkKey(found, workflow, idem);
        return { runId: found.run_id, replayed: true };
      }
    }
    const id = newRunId(work.now);
    if (fire) {
      const record = { schedule: fire.schedule, scheduled_at: fire.scheduledAt };
      if (!(await work.tx.insertScheduleFire({ ...record, run_id: id, fired_at: work.now }))) {
        throw new FireTaken();
      }
    }
    const { run, start } = await insertRunAt(work, core, reg, payload, id, (created) => {
      if (!fire) return;
      const data = { schedule: fire.schedule, scheduled_at: fire.scheduledAt, workflow };
      work.emit("schedule.fired", created.id, null, data);
    });
    if (idem) {
      const key = { key: idem.key, workflow, body_hash: idem.bodyHash, run_id: run.id };
      if (!(await work.tx.putIdempotencyKey({ ...key, created: work.now }, expiredBefore))) {
        throw new KeyTaken();
      }
      await work.tx.expireIdempotencyKeys(expiredBefore, EXPIRE_BATCH);
    }
    // The slot is claimed for at the unit's end, with the other submits' of the unit.
    slot?.claim(work, start.id);
    return { runId: run.id, replayed: false };
  }, how.operator ?? null);
  return { ...done, tookOwn: !done.replayed && slot?.tookOwn === true };
}

type RunPayload = { title: string; description: string; input: Json };

/** The run row of a new run of `reg`, queued at `now`. */
const newRun = (reg: RegisteredWorkflow, payload: RunPayload, id: string, now: number) => ({
  id,
  workflow: reg.name,
  title: payload.title,
  description: payload.description,
  status: "queued" as const,
  created: now,
  updated: now,
  started: false,
  input: payload.input,
});

/** What enqueues the start task of `run`. */
function startSpec(reg: RegisteredWorkflow, run: RunRecord, payload: RunPayload): EnqueueSpec {
  const { title, description, input } = payload;
  return {
    run,
    node: reg.graph.start,
    attempt: 1,
    payload_present: true,
    // The start node's payload carries `input` only when the run was given one.
    payload: input === null ? { title, description } : { title, description, input },
    branch: [],
    lineage: { reason: "start", parent: null },
  };
}

const emitCreated = (work: Work, run: RunRecord) =>
  work.emit("run.created", run.id, null, {
    position: run.position,
    title: run.title,
    workflow: run.workflow,
  });

/** Inside `work`: the run row, its `run.created` and its start task. */
async function insertRunAt(
  work: Work,
  core: EngineCore,
  reg: RegisteredWorkflow,
  payload: RunPayload,
  id: string = newRunId(work.now),
  /** Called right after `run.created` is emitted, before the start task's events. */
  created?: (run: RunRecord) => void,
): Promise<{ run: RunRecord; start: TaskRecord }> {
  const run = await work.tx.insertRun(newRun(reg, payload, id, work.now));
  emitCreated(work, run);
  created?.(run);
  const start = await enqueueTask(work, core.registry, startSpec(reg, run, payload));
  return { run, start };
}

/**
 * Queues a run of `workflow` for each input, in order, in one unit of work: all are created or
 * none. Answers the run ids in input order. The rows go in with one store call for the runs and
 * one for their start tasks; each run's `run.created` and `task.enqueued` follow in input order,
 * as if the runs had been inserted one by one. The dispatcher fills free slots after the commit.
 */
export async function submitRuns(
  core: EngineCore,
  workflow: string,
  inputs: readonly SubmitInput[],
  operator: string | null = null,
): Promise<string[]> {
  const reg = core.registry.workflows.get(workflow);
  if (!reg) throw notRegistered(workflow);
  const payloads = inputs.map((input) => ({
    title: input.title,
    description: input.description ?? "",
    input: input.input ?? null,
  }));
  try {
    return await core.uow.run(async (work) => {
      const rows = payloads.map((payload) => newRun(reg, payload, newRunId(work.now), work.now));
      const runs = await work.tx.insertRuns(rows);
      const specs = runs.map((run, i) => startSpec(reg, run, payloads[i]!));
      const starts = await insertEnqueued(work, core.registry, specs);
      for (const [i, run] of runs.entries()) {
        emitCreated(work, run);
        emitEnqueued(work, specs[i]!, starts[i]!);
      }
      return runs.map((run) => run.id);
    }, operator);
  } finally {
    core.wake(reg.pool);
  }
}

export async function editRun(
  core: EngineCore,
  runId: string,
  input: EditInput,
  operator: string | null = null,
): Promise<void> {
  await core.uow.run(async (work) => {
    const run = await requireRun(work.tx, runId);
    const changed: Record<string, string> = {};
    if (input.title != null && input.title !== run.title) changed.title = input.title;
    if (input.description != null && input.description !== run.description) {
      changed.description = input.description;
    }
    if (!Object.keys(changed).length) return;
    await work.tx.updateRun(runId, { ...changed, updated: work.now });
    work.emit("run.updated", runId, null, { changed });
  }, operator);
}

/** Cancels the run's outstanding attempts; answers how many were stopped. */
export async function cancelRun(
  core: EngineCore,
  runId: string,
  operator: string | null = null,
): Promise<number> {
  return core.uow.run(
    async (work) => cancelRunIn(work, core, await requireRun(work.tx, runId)),
    operator,
  );
}

/** `cancelRun` inside `work` (also per run of a cancel in bulk); refuses before it writes. */
export async function cancelRunIn(work: Work, core: EngineCore, run: RunRecord): Promise<number> {
  const runId = run.id;
  if (TERMINAL_RUN_STATUSES.includes(run.status)) {
    throw refused(`Run ${runId} has already ended (${run.status}).`, { status: run.status });
  }
  const cancelled: number[] = [];
  for (const task of await work.tx.listTasks({ run_id: runId, status: OUTSTANDING })) {
    if (await cancelAttempt(work, core, task, "cancel")) cancelled.push(task.id);
  }
  await work.tx.updateRun(runId, { status: "cancelled", updated: work.now });
  work.emit("run.cancelled", runId, null, { cancelled_tasks: cancelled });
  return cancelled.length;
}

/** Stops what the run has going and deletes it with its records; `run.deleted` is never stored. */
export async function deleteRun(
  core: EngineCore,
  runId: string,
  operator: string | null = null,
): Promise<void> {
  await core.uow.run(async (work) => {
    const run = await requireRun(work.tx, runId);
    for (const task of await work.tx.listTasks({ run_id: runId, status: OUTSTANDING })) {
      await cancelAttempt(work, core, task, "delete");
    }
    await work.tx.deleteRun(runId);
    work.unstoreRun(runId);
    work.emitUnstored("run.deleted", runId, { title: run.title, workflow: run.workflow });
  }, operator);
}

export async function pauseRun(
  core: EngineCore,
  runId: string,
  operator: string | null = null,
): Promise<void> {
  await core.uow.run(async (work) => {
    const run = await requireRun(work.tx, runId);
    if (run.status !== "queued" && run.status !== "running") {
      throw refused(`Only a queued or running run can be paused; run ${runId} is ${run.status}.`, {
        status: run.status,
      });
    }
    await work.tx.updateRun(runId, { status: "paused", updated: work.now });
    work.emit("run.paused", runId, null, {});
  }, operator);
}

export async function resumeRun(
  core: EngineCore,
  runId: string,
  operator: string | null = null,
): Promise<void> {
  await core.uow.run(async (work) => {
    const run = await requireRun(work.tx, runId);
    if (run.status !== "paused") {
      throw refused(`Only a paused run can be resumed; run ${runId} is ${run.status}.`, {
        status: run.status,
      });
    }
    await work.tx.updateRun(runId, {
      status: run.started ? "running" : "queued",
      updated: work.now,
    });
    work.emit("run.resumed", runId, null, {});
  }, operator);
  core.wake();
}

/** Moves the run in the dispatch list; answers its 1-based place. */
export async function positionRun(
  core: EngineCore,
  runId: string,
  input: PositionInput,
  operator: string | null = null,
): Promise<number> {
  const position = await core.uow.run(async (work) => {
    const run = await requireRun(work.tx, runId);
    const target =
      input.direction != null ? run.position - 1 + input.direction : (input.index ?? 0);
    const moved = await work.tx.moveRun(runId, target);
    if (moved.position !== run.position) {
      work.emit("run.reordered", runId, null, { position: moved.position, previous: run.position });
    }
    return moved.position;
  }, operator);
  core.wake();
  return position;
}

/**
 * An operator note under the run's one in-flight node, or `user` when there is not exactly one;
 * answers the log entry's id.
 */
export async function appendOperatorLog(
  core: EngineCore,
  runId: string,
  text: string,
  operator: string | null = null,
): Promise<number> {
  return core.uow.run(async (work) => {
    await requireRun(work.tx, runId);
    const going = await work.tx.listTasks({ run_id: runId, status: ["in_progress", "waiting"] });
    const nodes = new Set(going.map((t) => t.node));
    const node = nodes.size === 1 ? [...nodes][0] : "user";
    const entry = await appendLog(work, {
      run_id: runId,
      node,
      task_id: null,
      author: "user",
      kind: null,
      text,
    });
    return entry.id;
  }, operator);
}
