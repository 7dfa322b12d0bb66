// The shared state of one engine instance, passed to the modules that act on it.
import type { AttemptStop } from "./attempt-stop.ts";
import type { Clock } from "./clock.ts";
import type { EventBus } from "./event-bus.ts";
import type { Interrupt } from "./interrupt.ts";
import type { EngineObserver } from "./observer.ts";
import type { PausableTimer } from "./pausable-timer.ts";
import type { Registry } from "./registry.ts";
import type { SlotReservation } from "./slot-claims.ts";
import type { ClaimScope, Store } from "./store.ts";
import type { UnitOfWork, Work } from "./unit-of-work.ts";

/** An attempt whose body is running in this process. */
export interface LiveAttempt {
  readonly taskId: number;
  readonly runId: string;
  readonly claim: number;
  readonly pool: string;
  readonly abort: AttemptStop;
  timer: PausableTimer | null;
  /** Whether the attempt holds a pool slot now (it gives it up while waiting on a person). */
  holdsSlot: boolean;
  /**
   * The pool's wake count (`Pool.wakes`) when the claim of the attempt's outcome unit, made for
   * its slot, found nothing to take: the store had no claimable task then (slot-claims.ts).
   */
  foundNothingAt?: number;
}

export interface EngineCore {
  readonly store: Store;
  readonly bus: EventBus;
  readonly uow: UnitOfWork;
  readonly registry: Registry;
  readonly live: Map<number, LiveAttempt>;
  readonly observer: EngineObserver;
  /** The engine's time (clock.ts): every stored "now" and every timer for a due moment. */
  readonly clock: Clock;
  /** How long a submit's `Idempotency-Key` keeps answering the run it created (ms). */
  readonly idempotencyWindowMs: number;
  /** Asks the dispatcher to fill free slots (of one pool, or of every pool). */
  wake(pool?: string): void;
  /** Wakes the pool (every pool when null) at `at` (epoch ms), through the clock. */
  wakeAt(pool: string | null, at: number): void;
  /** Jitter's randomness, in [0, 1) (EngineOptions.random; Math.random by default). */
  readonly random: () => number;
  /** Pool slots of live attempts that wait on a person. */
  readonly slots: {
    release(live: LiveAttempt): void;
    reacquire(live: LiveAttempt): Promise<void>;
    /**
     * Inside `live`'s outcome unit: claims the next task for the slot it frees, and wakes the
     * dispatcher after the commit unless that claim took every task in `enqueued` (the unit's
     * new ready tasks). Answers false when it claims nothing: the caller wakes it then.
     */
    handOff(work: Work, live: LiveAttempt, enqueued: readonly number[]): Promise<boolean>;
    /** A free slot of the pool for a unit about to enqueue work, or null (slot-claims.ts). */
    reserve(pool: string): SlotReservation | null;
  };
  /** What a claim of a pool of this capacity names where several servers share the store. */
  claimScope(capacity: number): ClaimScope | undefined;
  /** Stops a live attempt; the caller has written (or deliberately not written) its row. */
  interrupt(taskId: number, why: Interrupt): void;
}
