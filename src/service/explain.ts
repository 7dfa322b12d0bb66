// "Why is this not running?" (docs/http.md, "Explain"): the reasons for one task or one run,
// read now from the store and the engine's registry (pools, live attempts). Read-only: it
// writes nothing and wakes nothing. The dispatch order it counts in is the claim's (run
// position, then priority descending, then created, then id; engine Store.claimTasks).
import {
  type Engine,
  freeSlots,
  type RunRecord,
  type TaskRecord,
  TERMINAL_RUN_STATUSES,
} from "../engine/index.ts";
import type { ExplainReason, RunExplain, SlotHolder, TaskExplain } from "./schemas/index.ts";
import { isoTime } from "./views/iso-time.ts";

const iso = (ms: number | null) => (ms === null ? null : isoTime(ms));

const FINISHED_MESSAGES: Record<string, string> = {
  done: "It finished: its result is recorded.",
  failed: "It failed; a retry, if its node has one left, is a new task.",
  dead_letter: "It was dead-lettered: it runs again only if an operator retries it.",
  cancelled: "It was cancelled.",
  completed: "The run completed.",
};

/** Precedes `b` in dispatch order. */
function before(a: TaskRecord, ra: RunRecord, b: TaskRecord, rb: RunRecord): boolean {
  if (ra.position !== rb.position) return ra.position < rb.position;
  if (a.priority !== b.priority) return a.priority > b.priority;
  if (a.created !== b.created) return a.created < b.created;
  return a.id < b.id;
}

/** One explanation's reads, shared by the tasks of a run: the ready tasks and their runs. */
export class Explainer {
  #readyTasks: Promise<TaskRecord[]> | undefined;
  readonly #runs = new Map<string, Promise<RunRecord | null>>();

  constructor(private readonly engine: Engine) {}

  #run(id: string): Promise<RunRecord | null> {
    let run = this.#runs.get(id);
    if (!run) {
      run = this.engine.store.getRun(id);
      this.#runs.set(id, run);
    }
    return run;
  }

  async run(run: RunRecord): Promise<RunExplain> {
    this.#runs.set(run.id, Promise.resolve(run));
    const tasks = await this.engine.store.listTasks({
      run_id: run.id,
      status: ["ready", "in_progress", "waiting"],
    });
    const reasons: ExplainReason[] = [];
    if (TERMINAL_RUN_STATUSES.includes(run.status)) {
      const message = FINISHED_MESSAGES[run.status] ?? `The run ended ${run.status}.`;
      reasons.push({ code: "finished", message, status: run.status, since: isoTime(run.updated) });
    }
    reasons.push(...this.#runHolds(run));
    const explained: TaskExplain[] = [];
    for (const task of tasks) explained.push(await this.task(task, run));
    return { run_id: run.id, status: run.status, reasons, tasks: explained };
  }

  async task(task: TaskRecord, given?: RunRecord): Promise<TaskExplain> {
    const run = given ?? (await this.#run(task.run_id));
    const out = { task_id: task.id, run_id: task.run_id, node: task.node, status: task.status };
    return { ...out, reasons: run ? await this.#reasons(task, run) : [] };
  }

  /** What holds every task of the run: paused, its workflow not registered. */
  #runHolds(run: RunRecord): ExplainReason[] {
    const out: ExplainReason[] = [];
    if (run.status === "paused") {
      const message = "Its run is paused: nothing of it is claimed until the run is resumed.";
      out.push({ code: "run_paused", message, since: isoTime(run.updated) });
    }
    if (!this.engine.registry.workflows.has(run.workflow)) {
      out.push({
        code: "workflow_unregistered",
        message: `Workflow ${run.workflow} is not registered: nothing of it runs until it is registered again.`,
        workflow: run.workflow,
      });
    }
    return out;
  }

  async #reasons(task: TaskRecord, run: RunRecord): Promise<ExplainReason[]> {
    switch (task.status) {
      case "in_progress": {
        const live = this.engine.live.has(task.id);
        const message = live
          ? `Attempt ${task.attempt} is running.`
          : `Attempt ${task.attempt} is marked in progress but no body runs it in this server; ` +
            "a restart or the workflow's registration recovers it.";
        return [
          { code: "running", message, attempt: task.attempt, since: iso(task.started), live },
        ];
      }
      case "waiting":
        return [await this.#waiting(task), ...this.#runHolds(run)];
      case "ready":
        return this.#ready(task, run);
      default: {
        const message = FINISHED_MESSAGES[task.status] ?? `It ended ${task.status}.`;
        return [{ code: "finished", message, status: task.status, since: iso(task.finished) }];
      }
    }
  }

  async #waiting(task: TaskRecord): Promise<ExplainReason> {
    // A sleeping body (`ctx.sleep`) waits on its wake time, not on a person.
    if (task.sleep_until !== null) {
      const until = isoTime(task.sleep_until);
      return { code: "not_due", message: `It sleeps until ${until}.`, until };
    }
    const pending = await this.engine.store.listRequests({ task_id: task.id, pending: true });
    const since = task.waiting_since ?? pending[0]?.created ?? null;
    const ids = pending.map((r) => r.id);
    const message =
      ids.length === 0
        ? "It waits, with no request left open: it is recovered when its workflow is registered."
        : `It waits for a person to answer request${ids.length === 1 ? "" : "s"} ${ids.map((i) => `#${i}`).join(", ")}.`;
    return { code: "waiting_on_person", message, request_ids: ids, since: iso(since) };
  }

  async #ready(task: TaskRecord, run: RunRecord): Promise<ExplainReason[]> {
    const out = this.#runHolds(run);
    // A retry waiting out its backoff, or a sleep a restart cut short.
    const notBefore = task.not_before;
    const now = this.engine.clock.now();
    if (notBefore != null && notBefore > now) {
      const until = isoTime(notBefore);
      out.unshift({ code: "not_due", message: `It is not due until ${until}.`, until });
    }
    if (out.length > 0) return out;
    const wf = this.engine.registry.workflows.get(run.workflow)!;
    const pool = this.engine.registry.pools.get(wf.pool)!;
    if (freeSlots(pool) <= 0) {
      const holders = await this.#holders(pool.name);
      out.push({
        code: "pool_full",
        message: `Pool ${pool.name} is full: ${pool.inFlight} of ${pool.capacity} slot${pool.capacity === 1 ? "" : "s"} held.`,
        pool: pool.name,
        capacity: pool.capacity,
        in_flight: pool.inFlight,
        holders,
      });
    }
    const ahead = await this.#ahead(task, run, wf.pool);
    if (ahead > 0) {
      out.push({
        code: "queued_behind",
        message: `${ahead} ready task${ahead === 1 ? " comes" : "s come"} before it on pool ${pool.name}.`,
        pool: pool.name,
        ahead,
      });
    }
    if (out.length === 0) {
      const message = `It is first in line on pool ${pool.name} with a slot free: it is claimed now.`;
      out.push({ code: "next", message, pool: pool.name });
    }
    return out;
  }

  /** The live attempts holding slots of `pool`, oldest claim first. */
  async #holders(pool: string): Promise<SlotHolder[]> {
    const out: Array<SlotHolder & { at: number }> = [];
    for (const live of this.engine.live.values()) {
      if (live.pool !== pool || !live.holdsSlot) continue;
      const task = await this.engine.store.getTask(live.taskId);
      if (!task) continue;
      const at = task.started ?? 0;
      out.push({
        task_id: task.id,
        run_id: task.run_id,
        node: task.node,
        since: iso(task.started),
        at,
      });
    }
    out.sort((a, b) => a.at - b.at || a.task_id - b.task_id);
    return out.map(({ at: _at, ...holder }) => holder);
  }

  /** Ready tasks a claim on `pool` takes before `task`. */
  async #ahead(task: TaskRecord, run: RunRecord, pool: string): Promise<number> {
    const workflows = new Set(this.engine.registry.workflowsOnPool(pool));
    this.#readyTasks ??= this.engine.store.listTasks({ status: ["ready"] });
    let ahead = 0;
    for (const other of await this.#readyTasks) {
      if (other.id === task.id) continue;
      const otherRun = other.run_id === run.id ? run : await this.#run(other.run_id);
      if (!otherRun || !workflows.has(otherRun.workflow)) continue;
      if (otherRun.status !== "queued" && otherRun.status !== "running") continue;
      if (before(other, otherRun, task, run)) ahead += 1;
    }
    return ahead;
  }
}
