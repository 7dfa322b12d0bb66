// The writer's in-memory picture of what can be dispatched, so a claim does not search the
// tables: for each workflow, the runs that are queued or running and have ready attempts, in
// dispatch-list order, each with its ready attempts in in-run order (priority descending, then
// created, then id). It also keeps the current record of every run that is queued or running or
// has ready attempts, which answers `getRun` inside transactions.
//
// It is a cache of the writer connection's state, kept exact by the writer's own statements
// (all of a SQLite file's writes go through this store's one writer). Anything it does not
// follow cheaply (a run moved or deleted, a unit rolled back) drops it; the next claim reloads
// it from the tables. Reads outside transactions never use it: they must see committed data.
// A claim still updates each row with `status = 'ready'` in its WHERE clause, so a wrong
// picture could never hand one attempt out twice. PostgreSQL with several servers sharing pools
// cannot keep such a picture (another server writes too): it claims in SQL with SKIP LOCKED.
//
// A ready attempt with a `not_before` (a retry's backoff, a sleep cut short by a restart) waits
// aside, in `#deferred`, until a claim's `now` reaches it; then it joins its run's ready list.
// While none waits (the usual case) a claim pays one size check for this.
import type { RunRecord, TaskRecord } from "../../engine/index.ts";
import { RunLine } from "./run-line.ts";

export interface RunSlot {
  run: RunRecord;
  /** Ready attempts in in-run dispatch order. */
  ready: TaskRecord[];
  /** Bumped whenever the slot leaves its line, so entries left in a line's heap go stale. */
  version: number;
  inLine: boolean;
}

export interface IndexSource {
  /** Runs that are queued or running. */
  activeRuns(): RunRecord[];
  /** Every ready attempt. */
  readyTasks(): TaskRecord[];
  getRun(id: string): RunRecord | null;
}

const isActive = (run: RunRecord) => run.status === "queued" || run.status === "running";

/** In-run dispatch order: priority descending, then created, then id. */
function inRunOrder(a: TaskRecord, b: TaskRecord): number {
  return b.priority - a.priority || a.created - b.created || a.id - b.id;
}

export class ReadyIndex {
  readonly #slots = new Map<string, RunSlot>();
  readonly #lines = new Map<string, RunLine>();
  /** Attempts in progress or waiting, as their rows stand: a guarded update of one of them
   * need not read its row back (tasks.ts). Filled by claims and updates while loaded. */
  readonly #going = new Map<number, TaskRecord>();
  /** Ready attempts not claimable before their `not_before`, by id. */
  readonly #deferred = new Map<number, TaskRecord>();
  /** The earliest `not_before` in `#deferred` (Infinity when empty or unknown). */
  #nextDue = Number.POSITIVE_INFINITY;
  #loaded = false;

  constructor(private readonly source: IndexSource) {}

  /** Whether it holds the tables' picture (else the next claim loads it). */
  get loaded(): boolean {
    return this.#loaded;
  }

  /** Forgets everything; the next claim reloads from the tables. */
  drop(): void {
    this.#loaded = false;
    this.#slots.clear();
    this.#lines.clear();
    this.#going.clear();
    this.#deferred.clear();
    this.#nextDue = Number.POSITIVE_INFINITY;
  }

  /** The row of an attempt in progress or waiting, if it follows it. Do not change it. */
  going(id: number): TaskRecord | undefined {
    return this.#going.get(id);
  }

  /** The record of a run it follows, as its row stands, or undefined. Do not change it. */
  knownRun(id: string): RunRecord | undefined {
    return this.#loaded ? this.#slots.get(id)?.run : undefined;
  }

  /** The current record of a run it follows (a copy), or undefined. */
  run(id: string): RunRecord | undefined {
    const slot = this.#loaded ? this.#slots.get(id) : undefined;
    return slot && { ...slot.run };
  }

  runWritten(run: RunRecord): void {
    if (!this.#loaded) return;
    const slot = this.#slots.get(run.id) ?? this.#slotFor(run);
    slot.run = run;
    this.#place(slot);
  }

  /** A followed run's `updated` was set (nothing that orders the index changed). */
  runTouched(id: string, now: number): void {
    const slot = this.#loaded ? this.#slots.get(id) : undefined;
    if (slot) slot.run = { ...slot.run, updated: now };
  }

  /** A row of `tasks` as it now stands, after an insert or an update. */
  taskWritten(task: TaskRecord): void {
    if (!this.#loaded) return;
    if (task.status === "in_progress" || task.status === "waiting") this.#going.set(task.id, task);
    else this.#going.delete(task.id);
    if (this.#deferred.size > 0) this.#deferred.delete(task.id);
    if (task.status === "ready" && task.not_before !== null) {
      // Not yet claimable: out of its run's list (if it was there) and aside until due.
      this.#defer(task);
      const ready = this.#slots.get(task.run_id)?.ready;
      const at = ready ? ready.findIndex((t) => t.id === task.id) : -1;
      if (at >= 0) {
        ready!.splice(at, 1);
        this.#place(this.#slots.get(task.run_id)!);
      }
      return;
    }
    let slot = this.#slots.get(task.run_id);
    const at = slot ? slot.ready.findIndex((t) => t.id === task.id) : -1;
    if (slot && at >= 0) slot.ready.splice(at, 1);
    if (task.status === "ready") {
      if (!slot) {
        const run = this.source.getRun(task.run_id);
        if (!run) {
          this.drop();
          return;
        }
        slot = this.#slotFor(run);
      }
      insertSorted(slot.ready, task);
    }
    if (slot) this.#place(slot);
  }

  /**
   * Removes and answers up to `limit` ready attempts of `workflows` in dispatch order. The
   * caller marks them claimed in the table.
   */
  take(workflows: readonly string[], limit: number, now: number): TaskRecord[] {
    if (!this.#loaded) this.#load();
    if (now >= this.#nextDue) this.#release(now);
    const lines = workflows.map((w) => this.#lines.get(w)).filter((l) => l !== undefined);
    const out: TaskRecord[] = [];
    while (out.length < limit) {
      let head: RunSlot | undefined;
      for (const line of lines) {
        const candidate = line.peek();
        if (candidate && (!head || candidate.run.position < head.run.position)) head = candidate;
      }
      if (!head) break;
      out.push(head.ready.shift()!);
      if (head.ready.length === 0) this.#place(head);
    }
    return out;
  }

  #defer(task: TaskRecord): void {
    this.#deferred.set(task.id, task);
    if (task.not_before! < this.#nextDue) this.#nextDue = task.not_before!;
  }

  /** Moves the deferred attempts due at `now` into their runs' ready lists. */
  #release(now: number): void {
    this.#nextDue = Number.POSITIVE_INFINITY;
    for (const task of [...this.#deferred.values()]) {
      if (task.not_before! > now) {
        if (task.not_before! < this.#nextDue) this.#nextDue = task.not_before!;
        continue;
      }
      this.#deferred.delete(task.id);
      let slot = this.#slots.get(task.run_id);
      if (!slot) {
        const run = this.source.getRun(task.run_id);
        if (!run) continue;
        slot = this.#slotFor(run);
      }
      insertSorted(slot.ready, task);
      this.#place(slot);
    }
  }

  #slotFor(run: RunRecord): RunSlot {
    const slot: RunSlot = { run, ready: [], version: 0, inLine: false };
    this.#slots.set(run.id, slot);
    return slot;
  }

  /** Puts the slot in or out of its workflow's line, and forgets it when nothing needs it. */
  #place(slot: RunSlot): void {
    const active = isActive(slot.run);
    const claimable = active && slot.ready.length > 0;
    if (claimable && !slot.inLine) {
      let line = this.#lines.get(slot.run.workflow);
      if (!line) {
        line = new RunLine();
        this.#lines.set(slot.run.workflow, line);
      }
      slot.inLine = true;
      line.push(slot);
    } else if (!claimable && slot.inLine) {
      slot.inLine = false;
      slot.version += 1;
    }
    if (!active && slot.ready.length === 0) this.#slots.delete(slot.run.id);
  }

  #load(): void {
    this.#loaded = true;
    for (const run of this.source.activeRuns()) this.#slotFor(run);
    for (const task of this.source.readyTasks()) {
      if (task.not_before !== null) {
        this.#defer(task);
        continue;
      }
      let slot = this.#slots.get(task.run_id);
      if (!slot) {
        const run = this.source.getRun(task.run_id);
        if (!run) continue;
        slot = this.#slotFor(run);
      }
      slot.ready.push(task);
    }
    for (const slot of this.#slots.values()) {
      slot.ready.sort(inRunOrder);
      this.#place(slot);
    }
  }
}

function insertSorted(list: TaskRecord[], task: TaskRecord): void {
  let i = list.length;
  while (i > 0 && inRunOrder(list[i - 1], task) > 0) i -= 1;
  list.splice(i, 0, task);
}
