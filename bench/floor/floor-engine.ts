// The least engine that runs the bench's workflows (bench/floor/floor-workflows.ts) on a pool of
// fixed slots and keeps the contract's promises that cost work: every transition and its events
// committed before anything is acknowledged or published (group commit: one transaction per
// turn of the event loop), the same stored rows and events per run as Yardmaster. No graph, no
// routing, no retries, no run list order, no guards: a floor, not an engine. A workflow says
// where a run starts and what a finished attempt leads to; the engine does the rest.
import { monotonicFactory } from "ulid";
import type { FloorEvent, StoredEvent } from "./floor-store.ts";

export interface FloorStore {
  /** Runs `fn`'s writes in one transaction; a store that commits asynchronously (PostgreSQL)
   * answers a promise settled once the transaction is durable. */
  transaction(fn: () => void): void | Promise<void>;
  insertRun(id: string, workflow: string, title: string, now: number): void;
  finishRun(id: string, now: number): void;
  insertTask(runId: string, node: string, payload: unknown, now: number): number;
  claimTask(id: number, now: number): void;
  finishTask(id: number, result: unknown, now: number): void;
  insertArrival(runId: string, fanout: number, index: number, taskId: number, value: unknown): void;
  bindArrivals(runId: string, fanout: number, joinTask: number): void;
  appendEvents(events: readonly FloorEvent[], now: number): StoredEvent[];
}

export interface Attempt {
  id: number;
  runId: string;
  node: string;
  payload: unknown;
  workflow: FloorWorkflow;
  /** The run's start task: its claim starts the run. */
  first: boolean;
  /** When it was made ready (performance.now): its commit's turn. */
  readyAt: number;
}

/** What the engine counted (the drivers ask by IPC: `floor-stats`). */
export interface EngineStats {
  /** Transactions committed. */
  commits: number;
  /**
   * Per attempt that took a slot a body's end freed, in start order: its start's lateness
   * (ms), from the later of that body's end and its own enqueueing to its body's start, i.e.
   * the hand-off: the freeing outcome's and the claim's commit and the turns around it.
   */
  handoffs: number[];
}

/** Why a task was enqueued, as its `task.enqueued` event says. */
export interface Lineage {
  reason: "start" | "transition" | "join";
  branch: ReadonlyArray<{ count: number; fanout: number; index: number }>;
  from_task: number | null;
  arrivals: readonly number[] | null;
}

export interface FloorWorkflow {
  name: string;
  /** The start node's name and payload for a run of this title. */
  start(title: string): { node: string; payload: unknown };
  /** The node body: what the attempt returns. */
  body(attempt: Attempt): Promise<unknown>;
  /** Inside the turn's transaction: stores the outcome and what it leads to. */
  done(engine: FloorEngine, attempt: Attempt, output: unknown, now: number): void;
}

const START: Lineage = { reason: "start", branch: [], from_task: null, arrivals: null };

export class FloorEngine {
  readonly store: FloorStore;
  readonly #workflows: Map<string, FloorWorkflow>;
  readonly #publish: (events: StoredEvent[]) => void;
  readonly #ulid = monotonicFactory();
  #free: number;
  #ready: Attempt[] = [];
  #readyAt = 0;
  #ops: Array<(now: number) => void> = [];
  #events: FloorEvent[] = [];
  #acks: Array<() => void> = [];
  #started: Attempt[] = [];
  #scheduled = false;
  #committing = 0;
  #position = 0;
  readonly #batch: number;
  readonly #depth: number;
  /** When bodies that freed a slot ended, oldest first (a claim takes the oldest). */
  #freedAt: number[] = [];
  #handedAt: Array<number | null> = [];
  readonly stats: EngineStats = { commits: 0, handoffs: [] };

  /** `batch`: the most operations (a submit, a step's end) one transaction takes; 1 commits
   * every operation on its own, the default takes all that are waiting (group commit).
   * `depth`: asynchronous commits in flight at once (the next built while one commits; they
   * commit, and release, in the order they were built). */
  constructor(
    store: FloorStore,
    workflows: readonly FloorWorkflow[],
    capacity: number,
    publish: (events: StoredEvent[]) => void,
    batch = Number.POSITIVE_INFINITY,
    depth = 1,
  ) {
    this.store = store;
    this.#workflows = new Map(workflows.map((w) => [w.name, w]));
    this.#free = capacity;
    this.#publish = publish;
    this.#batch = batch;
    this.#depth = depth;
  }

  has(workflow: string): boolean {
    return this.#workflows.has(workflow);
  }

  /** Resolves with the run id once the run and its first task are committed. */
  submit(name: string, title: string): Promise<string> {
    const workflow = this.#workflows.get(name)!;
    const id = this.#ulid();
    return new Promise((resolve) => {
      this.#later((now) => {
        this.store.insertRun(id, name, title, now);
        const position = ++this.#position;
        this.emit("run.created", id, null, { position, title, workflow: name });
        const { node, payload } = workflow.start(title);
        this.enqueue(workflow, id, node, payload, START, now);
        this.#acks.push(() => resolve(id));
      });
    });
  }

  /** Inserts a ready task and its `task.enqueued` event; answers the task's id. */
  enqueue(
    w: FloorWorkflow,
    runId: string,
    node: string,
    payload: unknown,
    l: Lineage,
    now: number,
  ) {
    const id = this.store.insertTask(runId, node, payload, now);
    this.emit("task.enqueued", runId, id, {
      ...{ attempt: 1, node, payload_present: true, reason: l.reason },
      ...{ branch: l.branch, from_task: l.from_task, arrivals: l.arrivals },
    });
    const first = l.reason === "start";
    this.#ready.push({ id, runId, node, payload, workflow: w, first, readyAt: performance.now() });
    return id;
  }

  /** The attempt's outcome and its `task.done` event. */
  finish(attempt: Attempt, output: unknown, transitions: string[], now: number): void {
    this.store.finishTask(attempt.id, output, now);
    const terminal = transitions.length === 0;
    const data = { attempt: 1, node: attempt.node, terminal, transitions };
    this.emit("task.done", attempt.runId, attempt.id, data);
  }

  /** The run's end, after its last attempt's `task.done`. */
  complete(attempt: Attempt, output: unknown, now: number, terminal = [attempt.id]): void {
    this.store.finishRun(attempt.runId, now);
    const data = { node: attempt.node, output, task_id: attempt.id, terminal_tasks: terminal };
    this.emit("run.completed", attempt.runId, attempt.id, data);
  }

  emit(name: string, runId: string, taskId: number | null, data: Record<string, unknown>): void {
    this.#events.push({ name, run_id: runId, task_id: taskId, data });
  }

  // Claims in the same transaction as the writes that freed slots or made tasks ready.
  #claim(now: number): void {
    while (this.#free > 0 && this.#readyAt < this.#ready.length) {
      const attempt = this.#ready[this.#readyAt++];
      this.#free -= 1;
      this.store.claimTask(attempt.id, now);
      const { node, id, runId } = attempt;
      if (attempt.first) this.emit("run.started", runId, id, { node, task_id: id });
      this.emit("task.started", runId, id, { attempt: 1, node });
      this.#started.push(attempt);
      const freed = this.#freedAt.shift();
      this.#handedAt.push(freed === undefined ? null : Math.max(freed, attempt.readyAt));
    }
    if (this.#readyAt > 1024 && this.#readyAt * 2 > this.#ready.length) {
      this.#ready = this.#ready.slice(this.#readyAt);
      this.#readyAt = 0;
    }
  }

  #later(op: (now: number) => void): void {
    this.#ops.push(op);
    if (this.#scheduled || this.#committing >= this.#depth) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  // An asynchronous commit holds the next transaction back until it is durable (or `depth` are in
  // flight): what arrives meanwhile waits in #ops and goes into the next one.
  readonly #flush = (): void => {
    this.#scheduled = false;
    const ops = this.#ops.length > this.#batch ? this.#ops.splice(0, this.#batch) : this.#ops;
    if (ops === this.#ops) this.#ops = [];
    const now = Date.now();
    let stored: StoredEvent[] = [];
    const committed = this.store.transaction(() => {
      for (const op of ops) op(now);
      this.#claim(now);
      stored = this.store.appendEvents(this.#events, now);
    });
    this.#events = [];
    const acks = this.#acks;
    const started = this.#started;
    const handed = this.#handedAt;
    this.#acks = [];
    this.#started = [];
    this.#handedAt = [];
    const release = () => {
      this.stats.commits += 1;
      this.#publish(stored);
      for (const ack of acks) ack();
      const at = performance.now();
      for (const from of handed) if (from !== null) this.stats.handoffs.push(at - from);
      for (const attempt of started) this.#run(attempt);
    };
    if (!committed) {
      this.#then(release);
      return;
    }
    this.#committing += 1;
    committed.then(() => {
      this.#committing -= 1;
      this.#then(release);
    });
  };

  #then(release: () => void): void {
    release();
    if (this.#ops.length === 0 || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(this.#flush);
  }

  #run(attempt: Attempt): void {
    attempt.workflow.body(attempt).then((output) => {
      this.#freedAt.push(performance.now());
      this.#later((now) => {
        this.#free += 1;
        attempt.workflow.done(this, attempt, output, now);
      });
    });
  }
}
