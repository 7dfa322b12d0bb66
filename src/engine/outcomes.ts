// Recording how an attempt ended. Each outcome is one unit of work guarded by the attempt's
// claim: if an operator cancelled, moved or re-set the task meanwhile, the guard fails and the
// late result is discarded, so a transition is never applied twice or after it was revoked.
import { classifyFailure, errorStack, type Routing } from "../authoring/index.ts";
import { staleOpenRequests } from "./ask.ts";
import { backoffDelayMs } from "./backoff.ts";
import type { EngineCore, LiveAttempt } from "./core.ts";
import type { Json, TaskRecord } from "./domain.ts";
import { applyTransitions, enqueueTask } from "./enqueue.ts";
import type { AttemptOutcome } from "./observer.ts";
import { settleRun } from "./settle.ts";
import type { TaskUpdate } from "./store.ts";
import type { Work } from "./unit-of-work.ts";
import { appendLog } from "./work-log.ts";

// `waiting` too: a body may stop waiting on its own (an ask raced against a deadline) and
// return; the claim still guards against an operator having revoked the attempt meanwhile.
const GOING = ["in_progress", "waiting"] as const;

/** Outcomes share units with each other (UnitOfWork.grouped), apart from submits. */
const OUTCOMES = "outcomes";

/** The task's `result`: what the body returned, as JSON (a routed edge: its payload). */
function resultOf(routing: Routing): Json {
  if (routing.kind === "end") return routing.value;
  // `return []` ends the branch without a value; the task still records the empty list.
  if (routing.transitions.length === 0) return [];
  const payloads = routing.transitions.map((t) => (t.present ? t.payload : null));
  return routing.fanout ? payloads : (payloads[0] ?? null);
}

/** One `TaskUpdate` on its own, answered as an early one is. */
async function updateOne(work: Work, { id, patch, guard, runId }: TaskUpdate) {
  return { task: await work.tx.updateTask(id, patch, guard, runId), later: false };
}

export async function completeAttempt(
  core: EngineCore,
  task: TaskRecord,
  routing: Routing,
  live?: LiveAttempt,
): Promise<boolean> {
  const terminal = routing.kind === "end";
  const update = (work: Work): TaskUpdate => ({
    id: task.id,
    patch: {
      status: "done",
      finished: work.now,
      result: resultOf(routing),
      result_present: true,
      terminal,
      token_hash: null,
    },
    guard: { status: GOING, claim: task.claim },
    runId: task.run_id,
  });
  // The update may go out with the other outcomes' of the unit (UnitOfWork.grouped).
  const sharing = { lane: OUTCOMES, key: task.run_id, early: update };
  return core.uow.grouped(async (work, sent) => {
    const { task: done, later } = await (sent ?? updateOne(work, update(work)));
    if (!done) return false;
    await staleOpenRequests(work, done.id);
    const transitions = routing.kind === "end" ? [] : routing.transitions.map((t) => t.edge);
    work.emit("task.done", done.run_id, done.id, {
      attempt: done.attempt,
      node: done.node,
      terminal,
      transitions,
    });
    const run = (await work.tx.getRun(done.run_id))!;
    // A successor enqueued means the run has work outstanding: nothing to settle.
    const enqueued =
      routing.kind === "transitions" && routing.transitions.length > 0
        ? await applyTransitions(work, core.registry, run, done, routing)
        : [];
    // A task of the run whose update went with this one's, after it (`Early.later`), is
    // outstanding until its own turn: the run is not settled yet.
    if (!enqueued.length && !later) await settleRun(work, run.id, done);
    await handOn(core, work, live, enqueued);
    return true;
  }, sharing);
}

/**
 * The slot `live` frees goes to the next task (claimed at the unit's end), and the dispatcher
 * is woken after the commit for the tasks `enqueued` now ready, unless that claim took them all.
 */
async function handOn(
  core: EngineCore,
  work: Work,
  live: LiveAttempt | undefined,
  enqueued: readonly number[],
): Promise<void> {
  const woken = live !== undefined && (await core.slots.handOff(work, live, enqueued));
  if (enqueued.length && !woken) work.after(() => core.wake());
}

/** Records a failed attempt: retried or dead-lettered, or discarded when it was revoked. */
export async function failAttempt(
  core: EngineCore,
  task: TaskRecord,
  err: unknown,
  live?: LiveAttempt,
): Promise<AttemptOutcome> {
  const { retryable, error } = classifyFailure(err);
  return core.uow.grouped(
    async (work) => {
      const node = core.registry.node(
        (await work.tx.getRun(task.run_id))?.workflow ?? "",
        task.node,
      );
      const retries = node ? core.registry.retriesOf(node) : 0;
      const backoff = node ? core.registry.backoffOf(node) : null;
      const willRetry = retryable && task.attempt <= retries;
      const status = willRetry ? "failed" : "dead_letter";
      const failed = await work.tx.updateTask(
        task.id,
        { status, finished: work.now, error, error_stack: errorStack(err), token_hash: null },
        { status: GOING, claim: task.claim },
      );
      if (!failed) return { kind: "discarded" };
      await staleOpenRequests(work, failed.id);
      const run = (await work.tx.getRun(task.run_id))!;
      const mark = work.mark();
      const retry = willRetry
        ? await enqueueTask(work, core.registry, {
            run,
            node: task.node,
            attempt: task.attempt + 1,
            payload_present: task.payload_present,
            payload: task.payload,
            branch: task.branch,
            lineage: { reason: "retry", parent: task.id },
            created: task.created,
          })
        : null;
      // With a backoff the retry waits `ready`, holding no slot, until its not-before.
      const retryAt =
        retry && backoff ? work.now + backoffDelayMs(backoff, task.attempt, core.random) : null;
      if (retry && retryAt !== null) {
        await work.tx.updateTask(retry.id, { not_before: retryAt });
        work.after(() => core.wakeAt(live?.pool ?? null, retryAt));
      }
      const base = { attempt: task.attempt, node: task.node, error };
      work.emitAt(mark, "task.failed", run.id, task.id, {
        ...base,
        retryable,
        will_retry: willRetry,
        retry_task_id: retry?.id ?? null,
        // Only with a backoff, so the event of a node without one reads as it always did.
        ...(retryAt === null ? {} : { retry_at: new Date(retryAt).toISOString() }),
      });
      if (!willRetry) work.emitAt(mark + 1, "task.dead_lettered", run.id, task.id, base);
      const when = retryAt === null ? "" : ` at ${new Date(retryAt).toISOString()}`;
      const suffix = willRetry
        ? ` (retrying as attempt ${task.attempt + 1}${when})`
        : " (dead-lettered)";
      await appendLog(work, {
        run_id: run.id,
        node: task.node,
        task_id: task.id,
        author: "engine",
        kind: "failure",
        text: `Attempt ${task.attempt} of ${task.node} failed: ${error}${suffix}`,
      });
      if (retry === null || retryAt !== null) await settleRun(work, run.id, failed);
      await handOn(core, work, live, retry && retryAt === null ? [retry.id] : []);
      return { kind: willRetry ? "retry" : "dead_letter", error };
    },
    { lane: OUTCOMES, key: task.run_id },
  );
}
