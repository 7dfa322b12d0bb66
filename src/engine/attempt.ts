// Running one claimed attempt: call the body with its edge refs, payload and ctx, race it
// against the attempt's abort signal (cancel, move, timeout, shutdown), then record the outcome.
// A body that ignores its signal keeps running in the background, but its result is discarded.
import { edgeRefs, GraphError, NodeTimeout, route } from "../authoring/index.ts";
import type { EngineCore, LiveAttempt } from "./core.ts";
import type { RunRecord, TaskRecord } from "./domain.ts";
import { ENDED, isInterrupt } from "./interrupt.ts";
import type { AttemptOutcome } from "./observer.ts";
import { completeAttempt, failAttempt } from "./outcomes.ts";
import { PausableTimer } from "./pausable-timer.ts";
import { buildTaskContext, type ContextExtensions } from "./task-context.ts";

export async function runAttempt(
  core: EngineCore,
  task: TaskRecord,
  run: RunRecord,
  live: LiveAttempt,
  ext: ContextExtensions,
): Promise<void> {
  const reg = core.registry.workflows.get(run.workflow);
  const node = reg?.graph.nodes.get(task.node);
  // The workflow was unregistered between the claim and now: leave the row as it is; a new
  // registration recovers it (see docs/registration.md).
  if (!reg) return;
  const watch = core.observer.attemptStarted({
    runId: run.id,
    taskId: task.id,
    workflow: run.workflow,
    node: task.node,
    attempt: task.attempt,
    pool: live.pool,
  });
  let outcome: AttemptOutcome | undefined;
  try {
    if (!node) {
      throw new GraphError(`node ${task.node} does not exist in workflow ${run.workflow} any more`);
    }
    if (node.timeout != null) {
      const ms = node.timeout * 1000 - task.used_s * 1000;
      live.timer = new PausableTimer(ms, () => live.abort.abort(new NodeTimeout(node.timeout!)));
    }
    const ctx = buildTaskContext({ core, task, run, live, description: run.description }, ext);
    const payload = task.payload_present ? task.payload : undefined;
    // An attempt stopped before its body got to run (a cancel committed right after the claim)
    // never calls it: the body would start work nobody is left to take.
    const body = Promise.resolve().then(() => {
      if (live.abort.aborted) throw live.abort.reason;
      return watch.within(() => node.fn(edgeRefs(node), payload, ctx));
    });
    const value = await Promise.race([body, live.abort.untilStopped()]);
    const recorded = await completeAttempt(core, task, route(reg.graph, node.name, value), live);
    outcome = recorded ? DONE : DISCARDED;
  } catch (err) {
    // An interrupt means the operation that stopped us already wrote the row (or, on shutdown,
    // deliberately left it for recovery), so there is nothing to record here.
    if (isInterrupt(err)) outcome = { kind: "stopped", reason: err.reason };
    else outcome = await failAttempt(core, task, err, live);
  } finally {
    live.timer?.clear();
    live.abort.abort(ENDED);
    watch.ended(outcome ?? { kind: "unrecorded", error: "writing the outcome failed" });
  }
}

const DONE: AttemptOutcome = { kind: "done" };
const DISCARDED: AttemptOutcome = { kind: "discarded" };

export type { LiveAttempt };
