// The dispatcher fills free pool slots. Each pool has a fixed capacity; a claim takes up to the
// number of free slots in one atomic store statement, in dispatch order (run position, then
// node priority, then enqueue time). Waking is coalesced: many wakes while a fill is under way
// cause one more fill afterwards, never concurrent claims on the same pool.
//
// Timers: a ready attempt with a not-before (a retry's backoff, a sleep cut short by a restart)
// is not claimable before it. Each pool has at most ONE clock timer, armed for the earliest
// such moment known; when it fires the pool is woken and the timer re-armed for the next one
// the store holds (`nextNotBefore`). At start every pool reads its earliest from the store.
import { runAttempt } from "./attempt.ts";
import { AttemptStop } from "./attempt-stop.ts";
import { claimInto } from "./claim.ts";
import type { EngineCore, LiveAttempt } from "./core.ts";
import type { RunRecord, TaskRecord } from "./domain.ts";
import { freeSlots, type Pool } from "./registry.ts";
import type { SlotOwner } from "./slot-claims.ts";
import type { ContextExtensions } from "./task-context.ts";

export class Dispatcher {
  readonly #filling = new Set<string>();
  readonly #again = new Set<string>();
  readonly #running = new Set<Promise<void>>();
  /** Waiting attempts whose answer arrived, queued for a slot before any new claim. */
  readonly #resumers = new Map<string, Array<{ live: LiveAttempt; go: () => void }>>();
  #stopped = false;
  /** Per pool: the one armed timer, its moment and how to cancel it. */
  readonly #timers = new Map<string, { at: number; cancel: () => void }>();

  constructor(
    private readonly core: EngineCore,
    private readonly ext: ContextExtensions,
    private readonly onError: (err: unknown) => void,
  ) {}

  wake(poolName?: string): void {
    if (this.#stopped) return;
    const pools = poolName ? [poolName] : [...this.core.registry.pools.keys()];
    for (const name of pools) {
      const pool = this.core.registry.pools.get(name);
      if (pool) pool.wakes += 1;
      if (this.#filling.has(name)) this.#again.add(name);
      else void this.#fill(name);
    }
  }

  stop(): void {
    this.#stopped = true;
    for (const t of this.#timers.values()) t.cancel();
    this.#timers.clear();
  }

  /** Wakes the pool (every pool when null) at `at`, unless its timer fires sooner already. */
  wakeAt(poolName: string | null, at: number): void {
    if (this.#stopped) return;
    const pools = poolName ? [poolName] : [...this.core.registry.pools.keys()];
    for (const name of pools) {
      const armed = this.#timers.get(name);
      if (armed && armed.at <= at) continue;
      armed?.cancel();
      const cancel = this.core.clock.at(at, () => {
        if (this.#timers.get(name)?.cancel !== cancel) return;
        this.#timers.delete(name);
        this.wake(name);
        void this.armNext(name).catch(this.onError);
      });
      this.#timers.set(name, { at, cancel });
    }
  }

  /** Arms the pool's timer for the earliest not-before still ahead in the store, if any. */
  async armNext(poolName: string): Promise<void> {
    const workflows = this.core.registry.workflowsOnPool(poolName);
    const next = await this.core.store.nextNotBefore(workflows, this.core.clock.now());
    if (next !== null) this.wakeAt(poolName, next);
  }

  /** Gives the slot `live` released while waiting back to it, as soon as one is free. */
  reacquire(live: LiveAttempt): Promise<void> {
    // A body waiting on two asks at once resumes on the first answer: the second answer finds
    // the slot already taken back, and must neither count it again nor wait for another.
    if (live.holdsSlot) return Promise.resolve();
    return new Promise((go) => {
      const queue = this.#resumers.get(live.pool) ?? [];
      queue.push({ live, go });
      this.#resumers.set(live.pool, queue);
      this.wake(live.pool);
    });
  }

  /** Gives a slot up while the attempt waits on a person. */
  release(live: LiveAttempt): void {
    if (!live.holdsSlot) return;
    live.holdsSlot = false;
    const pool = this.core.registry.pools.get(live.pool);
    if (pool) pool.inFlight -= 1;
    this.wake(live.pool);
  }

  /** Claims inside other units of work use these (slot-claims.ts). */
  get slotOwner(): SlotOwner {
    return {
      registry: this.core.registry,
      mayClaim: (pool) => !this.#stopped && !this.#resumers.get(pool.name)?.length,
      start: (pool, { task, run }) => this.#start(pool, task, run),
      scope: (pool) => this.core.claimScope(pool.capacity),
      wake: () => this.wake(),
    };
  }

  #serveResumers(pool: Pool): void {
    const queue = this.#resumers.get(pool.name);
    if (!queue?.length) return;
    const waiting: typeof queue = [];
    for (const entry of queue) {
      const { live, go } = entry;
      if (live.abort.aborted) continue;
      // Queued twice (two answers of one attempt): the first served took the slot for both.
      if (!live.holdsSlot) {
        if (freeSlots(pool) <= 0) {
          waiting.push(entry);
          continue;
        }
        live.holdsSlot = true;
        pool.inFlight += 1;
      }
      go();
    }
    queue.splice(0, queue.length, ...waiting);
  }

  /** Resolves when every attempt started by this dispatcher has finished. */
  async drain(): Promise<void> {
    while (this.#running.size) await Promise.allSettled([...this.#running]);
  }

  async #fill(name: string): Promise<void> {
    const pool = this.core.registry.pools.get(name);
    if (!pool) return;
    this.#filling.add(name);
    try {
      do {
        this.#again.delete(name);
        await this.#claimWhileFree(pool);
      } while (this.#again.has(name) && !this.#stopped);
    } catch (err) {
      this.onError(err);
    } finally {
      this.#filling.delete(name);
    }
  }

  async #claimWhileFree(pool: Pool): Promise<void> {
    while (!this.#stopped) {
      this.#serveResumers(pool);
      const free = freeSlots(pool);
      const workflows = this.core.registry.workflowsOnPool(pool.name);
      if (free <= 0 || workflows.length === 0) return;
      // The free slots are reserved while the claim transaction runs: a submit's reservation
      // (slot-claims.ts) made meanwhile would otherwise see them free too, and both claims
      // would start, running the pool past its capacity.
      pool.reserved += free;
      let started = 0;
      let claimed: number;
      try {
        claimed = await this.core.uow.run(async (work) => {
          const got = await claimInto(work, workflows, free, this.core.claimScope(pool.capacity));
          // Started right after commit, in batch order, as a hand-off or a submit starts its
          // claim: an operation committed later in the same batch (a cancel, a move) then finds
          // the attempt live and stops it, instead of interrupting nothing before it starts.
          work.after(() => {
            for (const { task, run } of got) {
              started += 1;
              pool.reserved -= 1;
              this.#start(pool, task, run);
            }
          });
          return got.length;
        });
      } finally {
        pool.reserved -= free - started;
      }
      if (claimed < free) return;
    }
  }

  #start(pool: Pool, task: TaskRecord, run: RunRecord): void {
    pool.inFlight += 1;
    const live: LiveAttempt = {
      taskId: task.id,
      runId: run.id,
      claim: task.claim,
      pool: pool.name,
      abort: new AttemptStop(),
      timer: null,
      holdsSlot: true,
    };
    this.core.live.set(task.id, live);
    const done = runAttempt(this.core, task, run, live, this.ext)
      .catch(this.onError)
      .finally(() => {
        if (this.core.live.get(task.id) === live) this.core.live.delete(task.id);
        this.#running.delete(done);
        // A slot handed on to the next attempt (slot-claims.ts), or given up while waiting on a
        // person (which woke the pool then), frees nothing now: nothing new to claim for.
        if (!live.holdsSlot) return;
        pool.inFlight -= 1;
        // Nor is there anything when the outcome's own claim for this slot found nothing and no
        // claimable work has arrived since (the pool was not woken).
        if (live.foundNothingAt === pool.wakes) return;
        this.wake(pool.name);
      });
    this.#running.add(done);
  }
}
