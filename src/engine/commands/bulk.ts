// Operations on many runs: cancel, delete, retry failed, and the retention sweep's delete. Each
// run gets the single operation's rules (never weaker): what the single command refuses is
// refused here, per run, and the rest is done. Writes go in chunks of CHUNK runs per unit of
// work with a turn of the event loop between chunks, so a 10,000-run delete never holds the
// store's writer (or the dispatcher's claims behind it) for long.
import type { EngineCore } from "../core.ts";
import { OUTSTANDING, type RunRecord, type RunStatus, TERMINAL_RUN_STATUSES } from "../domain.ts";
import { type DomainErrorCode, EngineError } from "../errors.ts";
import { unresolvedDeadLetters } from "../settle.ts";
import type { RunSelection } from "../store.ts";
import type { Work } from "../unit-of-work.ts";
import { cancelAttempt } from "./cancel.ts";
import { cancelRunIn } from "./runs.ts";
import { retryTask } from "./tasks.ts";

export type BulkAction = "cancel" | "delete" | "retry_failed";

/** Which runs: explicit ids, or a filter (oldest first by `created`, then id). */
export interface BulkTarget {
  runIds?: readonly string[];
  filter?: {
    status?: RunStatus;
    workflow?: string;
    /** Created strictly before (epoch ms). */
    createdBefore?: number;
    /** Resume after this run of an earlier answer (its `next`). */
    after?: { created: number; id: string };
  };
  /** At most this many runs (a filter matching more answers `more`). */
  limit: number;
}

export interface BulkRefusal {
  run_id: string;
  code: DomainErrorCode;
  message: string;
}

export interface BulkResult {
  done: string[];
  refused: BulkRefusal[];
  /** The filter matched more runs than `limit`: ask again with `next`. */
  more: boolean;
  /** The last run this answer looked at, to resume after (filters only). */
  next: { created: number; id: string } | null;
}

/** Runs per unit of work. */
export const BULK_CHUNK = 100;

/** Statuses a filter selects for each action: the runs the action can apply to. */
const ELIGIBLE: Record<BulkAction, readonly RunStatus[]> = {
  delete: TERMINAL_RUN_STATUSES,
  cancel: ["queued", "running", "paused"],
  retry_failed: ["failed"],
};

/** A turn of the event loop between chunks: claims and submits queued meanwhile go first. */
const yieldTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function bulkRuns(
  core: EngineCore,
  action: BulkAction,
  target: BulkTarget,
  operator: string | null = null,
): Promise<BulkResult> {
  const { ids, more, next } = await selectTargets(core, action, target);
  const result: BulkResult = { done: [], refused: [], more, next };
  if (action === "retry_failed") {
    for (const id of ids) await retryFailed(core, id, result, operator);
    return result;
  }
  for (let i = 0; i < ids.length; i += BULK_CHUNK) {
    if (i > 0) await yieldTurn();
    const chunk = ids.slice(i, i + BULK_CHUNK);
    await core.uow.run(async (work) => {
      const runs = await readChunk(work, chunk, result);
      if (action === "delete") await deleteChunk(core, work, runs, result, null);
      else for (const run of runs) await cancelOne(core, work, run, result);
    }, operator);
  }
  if (action === "cancel") core.wake();
  // In the order the runs were asked for (or selected).
  const order = new Map(ids.map((id, i) => [id, i]));
  result.refused.sort((a, b) => order.get(a.run_id)! - order.get(b.run_id)!);
  return result;
}

async function selectTargets(core: EngineCore, action: BulkAction, target: BulkTarget) {
  if (target.runIds) {
    return { ids: [...new Set(target.runIds)].slice(0, target.limit), more: false, next: null };
  }
  const f = target.filter ?? {};
  const eligible = ELIGIBLE[action];
  const statuses = f.status === undefined ? eligible : eligible.filter((s) => s === f.status);
  const selection: RunSelection = {
    statuses,
    workflow: f.workflow,
    createdBefore: f.createdBefore,
    after: f.after,
    limit: target.limit + 1,
  };
  const runs = await core.store.selectRuns(selection);
  const more = runs.length > target.limit;
  if (more) runs.length = target.limit;
  const last = runs.at(-1);
  return {
    ids: runs.map((r) => r.id),
    more,
    next: last ? { created: last.created, id: last.id } : null,
  };
}

/** The chunk's runs as they stand in this unit; a missing one is refused (`not_found`). */
async function readChunk(work: Work, ids: readonly string[], result: BulkResult) {
  const runs: RunRecord[] = [];
  for (const id of ids) {
    const run = await work.tx.getRun(id);
    if (run) runs.push(run);
    else refuse(result, id, "not_found", `Run ${JSON.stringify(id)} does not exist.`);
  }
  return runs;
}

function refuse(result: BulkResult, run_id: string, code: DomainErrorCode, message: string) {
  result.refused.push({ run_id, code, message });
}

/**
 * Deletes the ended runs of a chunk as `deleteRun` does (`run.deleted`, never stored). A run not
 * ended is refused: in bulk, a run still going is cancelled first (or deleted on its own).
 */
export async function deleteChunk(
  core: EngineCore,
  work: Work,
  runs: readonly RunRecord[],
  result: BulkResult,
  reason: "retention" | null,
): Promise<void> {
  const gone: RunRecord[] = [];
  for (const run of runs) {
    if (!TERMINAL_RUN_STATUSES.includes(run.status)) {
      const message = `Run ${run.id} is ${run.status}; a delete in bulk takes ended runs only (cancel it first, or delete it alone).`;
      refuse(result, run.id, "conflict", message);
      continue;
    }
    // An ended run has nothing outstanding; this is deleteRun's rule, kept should one linger.
    for (const task of await work.tx.listTasks({ run_id: run.id, status: OUTSTANDING })) {
      await cancelAttempt(work, core, task, "delete");
    }
    gone.push(run);
  }
  await work.tx.deleteRuns(gone.map((r) => r.id));
  for (const run of gone) {
    work.unstoreRun(run.id);
    const data = { title: run.title, workflow: run.workflow };
    work.emitUnstored("run.deleted", run.id, reason ? { ...data, reason } : data);
    result.done.push(run.id);
  }
}

async function cancelOne(core: EngineCore, work: Work, run: RunRecord, result: BulkResult) {
  try {
    await cancelRunIn(work, core, run);
    result.done.push(run.id);
  } catch (err) {
    // cancelRunIn refuses before it writes anything, so the chunk's other runs stand.
    if (!(err instanceof EngineError)) throw err;
    refuse(result, run.id, err.code, err.message);
  }
}

/** Retries every dead-lettered attempt of the run no operator replaced, as `retryTask` does. */
async function retryFailed(
  core: EngineCore,
  runId: string,
  result: BulkResult,
  operator: string | null,
): Promise<void> {
  const run = await core.store.getRun(runId);
  if (!run)
    return refuse(result, runId, "not_found", `Run ${JSON.stringify(runId)} does not exist.`);
  const failed = unresolvedDeadLetters(await core.store.listTasks({ run_id: runId }));
  if (!failed.length) {
    return refuse(result, runId, "conflict", `Run ${runId} has no dead-lettered attempt to retry.`);
  }
  try {
    for (const task of failed) await retryTask(core, task.id, operator);
    result.done.push(runId);
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
    refuse(result, runId, err.code, err.message);
  }
}
