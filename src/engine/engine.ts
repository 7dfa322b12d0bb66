// One engine: a store, an event bus, the registry of workflows and pools, the dispatcher and
// the attempts live in this process.
//
// Lifecycle. `start()` recovers (recovery.ts): with the store to itself, attempts a crash left
// `in_progress` are reset to `ready` (`engine.recovered`) and run again, since their outcome
// was never committed; on a store several servers share (`store.cluster`), it joins them and
// recovers only dead servers' attempts (cluster.ts). `stop()` stops claiming, interrupts live
// attempts without writing their rows (`engine.stopping`) and waits for them (bounded); alone,
// the next start recovers them, and beside other servers they are handed back at once. What an
// agent asked (a permission, an HTTP ask) went with its session, which died with the process:
// those requests go stale, its task token is revoked, and a task that waited only on them runs
// again.

import { askPerson } from "./ask.ts";
import { type Clock, systemClock } from "./clock.ts";
import { ClusterMember, type ClusterOptions } from "./cluster.ts";
import { Commands } from "./commands/index.ts";
import { addToRegistry } from "./commands/registration.ts";
import type { EngineCore, LiveAttempt } from "./core.ts";
import { Dispatcher } from "./dispatcher.ts";
import { EventBus } from "./event-bus.ts";
import { Interrupt } from "./interrupt.ts";
import { type EngineObserver, NO_OBSERVER } from "./observer.ts";
import { releaseAttempts, requeueAnswered, requeueOrphan } from "./recovery.ts";
import { type NodeDefaults, type RegisteredWorkflow, Registry } from "./registry.ts";
import { RetentionSweeper } from "./retention.ts";
import { Scheduler } from "./scheduler.ts";
import { handOff, reserveSlot } from "./slot-claims.ts";
import type { ClaimScope, Store } from "./store.ts";
import type { ContextExtensions } from "./task-context.ts";
import { UnitOfWork } from "./unit-of-work.ts";

export interface EngineOptions {
  store: Store;
  pools: Record<string, { capacity: number }>;
  defaults?: Partial<NodeDefaults>;
  bus?: EventBus;
  extensions?: ContextExtensions;
  onError?: (err: unknown) => void;
  /** Hears attempts, commits and lifecycle moments (logs, metrics, traces); none by default. */
  observer?: EngineObserver;
  /** How long `stop()` waits for interrupted bodies to return. */
  stopGraceMs?: number;
  /** How long a submit's `Idempotency-Key` keeps answering its run; 24 hours by default. */
  idempotencyWindowMs?: number;
  /** The engine's time; the system clock by default (tests pass a ManualClock). */
  clock?: Clock;
  /**
   * Ended runs older than this (ms since their end) are deleted by the retention sweeper
   * (retention.ts); absent: kept for ever.
   */
  retainMs?: number;
  /** Randomness of the retry backoff's jitter, in [0, 1); Math.random by default. */
  random?: () => number;
  /**
   * Where the store can be shared by several servers (`store.cluster`): this server's lease,
   * its URL and how it loads another server's registrations (cluster.ts). `false`: act as the
   * store's only server even so.
   */
  cluster?: Omit<ClusterOptions, "onError"> | false;
}

export const DEFAULT_IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export class Engine implements EngineCore {
  readonly store: Store;
  readonly bus: EventBus;
  readonly uow: UnitOfWork;
  readonly registry: Registry;
  readonly live = new Map<number, LiveAttempt>();
  readonly extensions: ContextExtensions;
  readonly observer: EngineObserver;
  readonly idempotencyWindowMs: number;
  readonly clock: Clock;
  readonly random: () => number;
  /** Every state change asked from outside the engine (commands/index.ts). */
  readonly commands: Commands;
  /** Schedules' timed work (scheduler.ts): started and stopped with the engine. */
  readonly scheduler: Scheduler;
  readonly #dispatcher: Dispatcher;
  readonly slots: EngineCore["slots"];
  readonly #graceMs: number;
  /** The retention sweeper when `retainMs` was given (retention.ts). */
  readonly retention: RetentionSweeper | null;
  /** This server among the servers sharing the store, or null when it is the only one. */
  readonly cluster: ClusterMember | null;
  readonly #onError: (err: unknown) => void;
  #started = false;

  constructor(options: EngineOptions) {
    this.store = options.store;
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.bus = options.bus ?? new EventBus();
    this.observer = options.observer ?? NO_OBSERVER;
    this.uow = new UnitOfWork(this.store, this.bus, this.observer, this.clock);
    this.registry = new Registry(options.pools, {
      retries: options.defaults?.retries ?? 0,
      priority: options.defaults?.priority ?? 0,
      backoff: options.defaults?.backoff ?? null,
    });
    this.extensions = { ask: askPerson, ...options.extensions };
    const onError = options.onError ?? ((err) => console.error("yardmaster engine error", err));
    this.#onError = onError;
    this.cluster =
      this.store.cluster && options.cluster !== false
        ? new ClusterMember(this, this.store.cluster, { ...options.cluster, onError })
        : null;
    this.#dispatcher = new Dispatcher(this, this.extensions, onError);
    const owner = this.#dispatcher.slotOwner;
    this.slots = {
      release: (live) => this.#dispatcher.release(live),
      reacquire: (live) => this.#dispatcher.reacquire(live),
      handOff: (work, live, enqueued) => handOff(owner, work, live, enqueued),
      reserve: (pool) => (this.#started ? reserveSlot(owner, pool) : null),
    };
    this.#graceMs = options.stopGraceMs ?? 5000;
    this.idempotencyWindowMs = options.idempotencyWindowMs ?? DEFAULT_IDEMPOTENCY_WINDOW_MS;
    this.scheduler = new Scheduler(this, onError);
    this.commands = new Commands(this, this.scheduler);
    this.retention =
      options.retainMs === undefined ? null : new RetentionSweeper(this, options.retainMs, onError);
  }

  /** Started and not stopping: claiming work. */
  get running(): boolean {
    return this.#started;
  }

  claimScope(capacity: number): ClaimScope | undefined {
    return this.cluster?.scope(capacity);
  }

  wake(pool?: string): void {
    if (this.#started) this.#dispatcher.wake(pool);
  }

  wakeAt(pool: string | null, at: number): void {
    if (this.#started) this.#dispatcher.wakeAt(pool, at);
  }

  interrupt(taskId: number, why: Interrupt): void {
    const live = this.live.get(taskId);
    // Stopping is idempotent: a second operation's reason does not replace the first.
    live?.abort.abort(why);
  }

  /**
   * Adds or replaces a workflow in memory, as a server does for its configured workflows before
   * `commands.syncRegistrations()`; `commands.bindWorkflow` also writes the store row and event.
   */
  register(wf: RegisteredWorkflow): void {
    addToRegistry(this, wf);
  }

  /** Drops a workflow from memory only: another server sharing the store removed it. */
  forget(name: string): void {
    this.registry.workflows.delete(name);
  }

  async start(): Promise<void> {
    if (this.cluster) await this.cluster.start();
    else await this.#recover();
    this.bus.subscribe((e) => {
      if (e.name === "request.answered" && e.task_id != null) {
        void requeueOrphan(this, e.task_id, this.cluster?.id ?? null).catch(this.#onError);
      }
    });
    this.#started = true;
    for (const pool of this.registry.pools.keys()) await this.#dispatcher.armNext(pool);
    this.#dispatcher.wake();
    this.retention?.start();
    await this.scheduler.start();
  }

  /** The one server of its store: every attempt in progress or waiting was left by a crash. */
  async #recover(): Promise<void> {
    const left = await this.store.listTasks({ status: ["in_progress", "waiting"] });
    let waiting: number[] = [];
    await this.uow.run(async (work) => {
      waiting = await releaseAttempts(this, work, left);
    });
    await requeueAnswered(this, waiting, null);
  }

  async stop(): Promise<number[]> {
    this.#started = false;
    this.retention?.stop();
    // A sweep stops after its current batch; it must not write into a store being closed.
    await this.retention?.sweeping;
    this.scheduler.stop();
    await this.cluster?.stop();
    this.#dispatcher.stop();
    const ids = [...this.live.keys()];
    this.observer.stopping(ids);
    await this.uow.run(async (work) => {
      work.emit("engine.stopping", null, null, { task_ids: ids });
    });
    for (const id of ids) this.interrupt(id, new Interrupt("shutdown"));
    const grace = new Promise((r) => setTimeout(r, this.#graceMs).unref());
    await Promise.race([this.#dispatcher.drain(), grace]);
    // Several servers: what this one held runs elsewhere now, not after a lease runs out (if
    // the store cannot be reached, the others take it when this server's lease runs out).
    await this.cluster?.handBack().catch(this.#onError);
    return ids;
  }
}
