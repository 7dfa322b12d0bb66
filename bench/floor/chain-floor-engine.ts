// The least engine that runs W1's chain (a -> b -> c, each returning its input plus one) on a
// pool of fixed slots and keeps the contract's promises that cost work: every transition and its
// events committed before anything is acknowledged or published (group commit: one transaction
// per turn of the event loop), the same stored events per run as Yardmaster (run.created,
// run.started, run.completed, and task.enqueued, task.started, task.done per step). No graph,
// no routing, no retries, no run list order, no guards: a floor, not an engine.
import { monotonicFactory } from "ulid";
import type { FloorEvent, StoredEvent } from "./chain-floor-store.ts";

export interface FloorStore {
  /** Runs `fn`'s writes in one transaction; a store that commits asynchronously (PostgreSQL)
   * answers a promise settled once the transaction is durable. */
  transaction(fn: () => void): void | Promise<void>;
  insertRun(id: string, workflow: string, title: string, now: number): void;
  finishRun(id: string, now: number): void;
  insertTask(runId: string, node: string, payload: unknown, now: number): number;
  claimTask(id: number, now: number): void;
  finishTask(id: number, result: unknown, now: number): void;
  appendEvents(events: readonly FloorEvent[], now: number): StoredEvent[];
}

const NODES = ["a", "b", "c"];

interface Attempt {
  id: number;
  runId: string;
  step: number;
  payload: number;
}

export class ChainFloorEngine {
  readonly #store: FloorStore;
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

  /** `batch`: the most operations (a submit, a step's end) one transaction takes; 1 commits
   * every operation on its own, the default takes all that are waiting (group commit).
   * `depth`: asynchronous commits in flight at once (the next built while one commits; they
   * commit, and release, in the order they were built). */
  constructor(
    store: FloorStore,
    capacity: number,
    publish: (events: StoredEvent[]) => void,
    batch = Number.POSITIVE_INFINITY,
    depth = 1,
  ) {
    this.#store = store;
    this.#free = capacity;
    this.#publish = publish;
    this.#batch = batch;
    this.#depth = depth;
  }

  /** Resolves with the run id once the run and its first task are committed. */
  submit(title: string): Promise<string> {
    const id = this.#ulid();
    return new Promise((resolve) => {
      this.#later((now) => {
        this.#store.insertRun(id, "chain3", title, now);
        this.#emit("run.created", id, null, {
          position: ++this.#position,
          title,
          workflow: "chain3",
        });
        this.#enqueue(id, 0, 0, null, now);
        this.#acks.push(() => resolve(id));
      });
    });
  }

  #enqueue(runId: string, step: number, payload: number, from: number | null, now: number): void {
    const id = this.#store.insertTask(runId, NODES[step], payload, now);
    const reason = from === null ? "start" : "transition";
    this.#emit("task.enqueued", runId, id, {
      ...{ attempt: 1, node: NODES[step], payload_present: true, reason },
      ...{ branch: [], from_task: from, arrivals: null },
    });
    this.#ready.push({ id, runId, step, payload });
  }

  #finish(attempt: Attempt, output: number): void {
    this.#later((now) => {
      this.#free += 1;
      const { id, runId, step } = attempt;
      this.#store.finishTask(id, output, now);
      const last = step === NODES.length - 1;
      const transitions = last ? [] : [NODES[step + 1]];
      this.#emit("task.done", runId, id, {
        attempt: 1,
        node: NODES[step],
        terminal: last,
        transitions,
      });
      if (!last) return this.#enqueue(runId, step + 1, output, id, now);
      this.#store.finishRun(runId, now);
      const data = { node: NODES[step], output, task_id: id, terminal_tasks: [id] };
      this.#emit("run.completed", runId, id, data);
    });
  }

  // Claims in the same transaction as the writes that freed slots or made tasks ready.
  #claim(now: number): void {
    while (this.#free > 0 && this.#readyAt < this.#ready.length) {
      const attempt = this.#ready[this.#readyAt++];
      this.#free -= 1;
      this.#store.claimTask(attempt.id, now);
      const node = NODES[attempt.step];
      if (attempt.step === 0)
        this.#emit("run.started", attempt.runId, null, { node, task_id: attempt.id });
      this.#emit("task.started", attempt.runId, attempt.id, { attempt: 1, node });
      this.#started.push(attempt);
    }
    if (this.#readyAt > 1024 && this.#readyAt * 2 > this.#ready.length) {
      this.#ready = this.#ready.slice(this.#readyAt);
      this.#readyAt = 0;
    }
  }

  #emit(name: string, runId: string, taskId: number | null, data: Record<string, unknown>): void {
    this.#events.push({ name, run_id: runId, task_id: taskId, data });
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
    const committed = this.#store.transaction(() => {
      for (const op of ops) op(now);
      this.#claim(now);
      stored = this.#store.appendEvents(this.#events, now);
    });
    this.#events = [];
    const acks = this.#acks;
    const started = this.#started;
    this.#acks = [];
    this.#started = [];
    const release = () => {
      this.#publish(stored);
      for (const ack of acks) ack();
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

  // The node body: an async function returning its input plus one.
  #run(attempt: Attempt): void {
    const body = async (input: number) => input + 1;
    body(attempt.payload).then((output) => this.#finish(attempt, output));
  }
}
