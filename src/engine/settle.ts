// Deciding a run's end. After any change that can leave a run with nothing outstanding, the
// run is settled:
// - a join with some but not all branches arrived  -> failed, code `join_incomplete`;
// - a dead-lettered attempt no operator retried    -> failed with that attempt's error;
// - otherwise                                      -> completed with the terminal outputs.
// And the reverse: an operator operation that enqueues work in an ended run re-opens it.
import type { ArrivalRecord, Json, RunRecord, TaskRecord } from "./domain.ts";
import { TERMINAL_RUN_STATUSES } from "./domain.ts";
import type { Work } from "./unit-of-work.ts";

/** Branch order: frame by frame on index, a shorter (enclosing) stack first, then task id. */
export function compareBranchOrder(a: TaskRecord, b: TaskRecord): number {
  const n = Math.min(a.branch.length, b.branch.length);
  for (let i = 0; i < n; i++) {
    const d = a.branch[i].index - b.branch[i].index;
    if (d !== 0) return d;
  }
  return a.branch.length - b.branch.length || a.id - b.id;
}

/**
 * Terminal tasks of a run (its outputs), in branch order. One per branch: a branch ends once,
 * so two terminal tasks on one branch means an operator ran part of it again (a retry of the
 * terminal attempt, a rerun of a node before it) after the run had ended, and the later one
 * replaces the earlier, as a retried attempt replaces the one before it.
 */
export function terminalTasks(tasks: TaskRecord[]): TaskRecord[] {
  const latest = new Map<string, TaskRecord>();
  for (const t of tasks) {
    if (t.status !== "done" || !t.terminal) continue;
    const key = t.branch.map((f) => `${f.fanout}:${f.index}`).join("/");
    const seen = latest.get(key);
    if (!seen || t.id > seen.id) latest.set(key, t);
  }
  return [...latest.values()].sort(compareBranchOrder);
}

export function runOutput(terminals: TaskRecord[]): Json {
  if (terminals.length === 1) return terminals[0].result;
  if (terminals.length === 0) return null;
  return terminals.map((t) => t.result);
}

function partialJoin(arrivals: ArrivalRecord[]): ArrivalRecord[] | null {
  const groups = new Map<string, ArrivalRecord[]>();
  for (const a of arrivals) {
    const key = `${a.join}\u0000${a.fanout}`;
    // Pushed, not copied: a wide fan-out has thousands of arrivals at one join.
    const group = groups.get(key);
    if (group) group.push(a);
    else groups.set(key, [a]);
  }
  for (const group of groups.values()) {
    if (group.every((a) => a.join_task === null) && group.length < group[0].count) return group;
  }
  return null;
}

/** An operator retry, move or rerun of a dead-lettered attempt takes its place. */
const REPLACING = new Set(["manual_retry", "move", "rerun"]);

/** The run's dead-lettered attempts no operator retry, move or rerun replaced, by id. */
export function unresolvedDeadLetters(tasks: readonly TaskRecord[]): TaskRecord[] {
  const retried = new Set(
    tasks.filter((t) => REPLACING.has(t.lineage?.reason ?? "")).map((t) => t.lineage?.parent),
  );
  return tasks.filter((t) => t.status === "dead_letter" && !retried.has(t.id));
}

function unresolvedDeadLetter(tasks: TaskRecord[]): TaskRecord | undefined {
  return unresolvedDeadLetters(tasks).at(-1);
}

/** Ends the run if nothing is outstanding. `last` is the task whose change prompted this. */
export async function settleRun(work: Work, runId: string, last: TaskRecord): Promise<void> {
  const run = await work.tx.getRun(runId);
  if (!run || TERMINAL_RUN_STATUSES.includes(run.status)) return;
  // Asked after every completion that ends a branch: a probe, so a wide fan-out does not read
  // its whole run once per branch. The run is read in full only once, when it ends.
  if (await work.tx.hasOutstandingTasks(runId)) return;
  const tasks = await work.tx.listTasks({ run_id: runId });
  const partial = partialJoin(await work.tx.listArrivals(runId));
  if (partial) {
    const lastArrival = partial.at(-1)!;
    const error = `join ${lastArrival.join} incomplete: ${partial.length} of ${lastArrival.count} branches arrived`;
    return failRun(work, run, error, lastArrival.join, lastArrival.task_id, "join_incomplete");
  }
  const dead = unresolvedDeadLetter(tasks);
  if (dead) return failRun(work, run, dead.error ?? "dead-lettered", dead.node, dead.id, null);
  const terminals = terminalTasks(tasks);
  const output = runOutput(terminals);
  const closer = terminals.at(-1) ?? last;
  await work.tx.updateRun(run.id, { status: "completed", updated: work.now });
  work.emit("run.completed", run.id, closer.id, {
    node: closer.node,
    output,
    task_id: closer.id,
    terminal_tasks: terminals.map((t) => t.id),
  });
}

async function failRun(
  work: Work,
  run: RunRecord,
  error: string,
  node: string,
  taskId: number,
  code: "join_incomplete" | null,
): Promise<void> {
  await work.tx.updateRun(run.id, { status: "failed", updated: work.now });
  work.emit("run.failed", run.id, taskId, { error, node, task_id: taskId, code });
}

/** An operation enqueued work in `run`: an ended run becomes running again. */
export async function reopenRun(work: Work, run: RunRecord): Promise<RunRecord> {
  if (!TERMINAL_RUN_STATUSES.includes(run.status)) {
    return work.tx.updateRun(run.id, { updated: work.now });
  }
  const status = run.started ? "running" : "queued";
  const updated = await work.tx.updateRun(run.id, { status, updated: work.now });
  work.emit("run.updated", run.id, null, { changed: { status } });
  return updated;
}
