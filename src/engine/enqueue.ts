// Creating attempts: a plain enqueue, the transitions a node's return value asked for (with
// fan-out frames), and arrivals at a join. All of it runs inside one unit of work.
//
// Join rule: an arrival belongs to the innermost open fan-out of the arriving branch (the last
// frame of its branch stack). When every index 0..count-1 of that frame has arrived, the join
// task is enqueued once, in the same transaction, with the arrivals in branch order as its
// payload and the frame popped from its branch stack. A second arrival of an index already
// arrived, or any arrival after the join was enqueued, is recorded as `late` and enqueues nothing.
// A join reached outside any fan-out closes an implicit single-branch frame (count 1) opened by
// the arriving task itself: its events name a real task, and each such arrival runs the join
// again (a loop through it), instead of the second being taken for a late duplicate.
import type { Routing } from "../authoring/index.ts";
import type { BranchFrame, Json, Lineage, NewTask, RunRecord, TaskRecord } from "./domain.ts";
import type { Registry } from "./registry.ts";
import type { Work } from "./unit-of-work.ts";

export interface EnqueueSpec {
  run: RunRecord;
  node: string;
  attempt: number;
  payload_present: boolean;
  payload: Json;
  branch: BranchFrame[];
  lineage: Lineage;
  /** Keep an earlier enqueue time (a retry keeps its dispatch place). */
  created?: number;
}

export const eventFrames = (branch: BranchFrame[]) =>
  branch.map(({ count, fanout, index }) => ({ count, fanout, index }));

export async function enqueueTask(
  work: Work,
  registry: Registry,
  spec: EnqueueSpec,
): Promise<TaskRecord> {
  const task = await work.tx.insertTask(newTask(work, registry, spec));
  emitEnqueued(work, spec, task);
  return task;
}

/**
 * `enqueueTask` for many specs with one store call (a batch submit's start tasks). Emits
 * nothing: the caller emits each task's `task.enqueued` (`emitEnqueued`) where its events go.
 */
export async function insertEnqueued(
  work: Work,
  registry: Registry,
  specs: readonly EnqueueSpec[],
): Promise<TaskRecord[]> {
  return work.tx.insertTasks(specs.map((spec) => newTask(work, registry, spec)));
}

function newTask(work: Work, registry: Registry, spec: EnqueueSpec): NewTask {
  const { priority, explicit } = registry.priorityOf(registry.node(spec.run.workflow, spec.node));
  return {
    run_id: spec.run.id,
    node: spec.node,
    attempt: spec.attempt,
    priority,
    explicit,
    created: spec.created ?? work.now,
    payload_present: spec.payload_present,
    payload: spec.payload_present ? spec.payload : null,
    branch: spec.branch,
    lineage: spec.lineage,
  };
}

/** The `task.enqueued` of `task`, inserted for `spec`. */
export function emitEnqueued(work: Work, spec: EnqueueSpec, task: TaskRecord): void {
  work.emit("task.enqueued", spec.run.id, task.id, {
    attempt: task.attempt,
    node: task.node,
    payload_present: task.payload_present,
    reason: spec.lineage.reason,
    branch: eventFrames(task.branch),
    from_task:
      spec.lineage.reason === "join" ? (spec.lineage.from_task ?? null) : spec.lineage.parent,
    arrivals: spec.lineage.arrivals ?? null,
  });
}

/**
 * Applies a routing decision of `from` (already marked done). Answers the ids of the tasks it
 * enqueued (one or more: the run certainly has work outstanding and need not be settled).
 */
export async function applyTransitions(
  work: Work,
  registry: Registry,
  run: RunRecord,
  from: TaskRecord,
  routing: Extract<Routing, { kind: "transitions" }>,
): Promise<number[]> {
  const count = routing.transitions.length;
  const enqueued: number[] = [];
  for (const [index, t] of routing.transitions.entries()) {
    const branch = routing.fanout
      ? [...from.branch, { count, fanout: from.id, index, key: t.present ? t.payload : null }]
      : from.branch;
    const target = registry.node(run.workflow, t.edge);
    if (target?.join) {
      const joined = await arrive(
        work,
        registry,
        run,
        from,
        t.edge,
        branch,
        t.present ? t.payload : null,
      );
      if (joined) enqueued.push(joined.id);
      continue;
    }
    const task = await enqueueTask(work, registry, {
      run,
      node: t.edge,
      attempt: 1,
      payload_present: t.present,
      payload: t.payload,
      branch,
      lineage: { reason: "transition", parent: from.id },
    });
    enqueued.push(task.id);
  }
  return enqueued;
}

async function arrive(
  work: Work,
  registry: Registry,
  run: RunRecord,
  from: TaskRecord,
  join: string,
  branch: BranchFrame[],
  value: Json,
): Promise<TaskRecord | null> {
  const frame = branch.at(-1) ?? { count: 1, fanout: from.id, index: 0, key: null };
  // Counted, not listed: every branch arrives, so listing would read O(branches²) rows a run.
  const earlier = await work.tx.tallyArrivals(run.id, join, frame.fanout, frame.index);
  const late = earlier.indexArrived || earlier.joined;
  if (!late) {
    await work.tx.insertArrival({
      run_id: run.id,
      join,
      fanout: frame.fanout,
      index: frame.index,
      count: frame.count,
      task_id: from.id,
      key: frame.key,
      value,
      join_task: null,
    });
  }
  const arrived = late ? earlier.arrived : earlier.arrived + 1;
  work.emit("join.arrived", run.id, from.id, {
    join,
    fanout_task: frame.fanout,
    index: frame.index,
    count: frame.count,
    arrived,
    late,
  });
  if (late || arrived < frame.count) return null;
  return enqueueJoin(work, registry, run, join, frame.fanout, branch.slice(0, -1), from.id);
}

/** Enqueues the join task from the stored arrivals of (join, fanout). Also used by rerun. */
export async function enqueueJoin(
  work: Work,
  registry: Registry,
  run: RunRecord,
  join: string,
  fanout: number,
  branch: BranchFrame[],
  parent: number,
  reason: "join" | "rerun" = "join",
  attempt = 1,
): Promise<TaskRecord> {
  const arrivals = await work.tx.listArrivals(run.id, join, fanout);
  const payload = arrivals.map((a) => ({
    index: a.index,
    key: a.key,
    value: a.value,
    task_id: a.task_id,
  }));
  const task = await enqueueTask(work, registry, {
    run,
    node: join,
    attempt,
    payload_present: true,
    payload,
    branch,
    lineage: {
      reason,
      parent,
      // 0: a join task enqueued before implicit frames were keyed by their arriving task.
      from_task: fanout === 0 ? null : fanout,
      arrivals: arrivals.map((a) => a.task_id),
    },
  });
  if (reason === "join") await work.tx.setJoinTask(run.id, join, fanout, task.id);
  return task;
}
