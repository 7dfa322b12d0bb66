// Claims made inside another unit of work, so that a slot is filled in the same transaction
// that made it free or put work in front of it, instead of waking the dispatcher for a claim
// transaction of its own (one more commit and event-loop turn per step):
// - a finishing attempt hands its slot to the next task in dispatch order;
// - a submit takes a free slot for the next task in dispatch order (the submits of one unit
//   claim together at its end).
// Both claim with the dispatcher's own order (claimInto), so which task runs next is the same as
// if the dispatcher had claimed; attempts waiting to resume keep their priority over both.
import { type Claimed, claimInto } from "./claim.ts";
import type { LiveAttempt } from "./core.ts";
import { freeSlots, type Pool, type Registry } from "./registry.ts";
import type { ClaimScope } from "./store.ts";
import type { Work } from "./unit-of-work.ts";

/** What these claims need from the dispatcher. */
export interface SlotOwner {
  readonly registry: Registry;
  /** Whether new claims may be made for the pool now (not stopped, no resumer waiting). */
  mayClaim(pool: Pool): boolean;
  /** Starts a claimed attempt, leasing it a slot (the caller gave back what it held). */
  start(pool: Pool, claimed: Claimed): void;
  /** The claim's scope where several servers share the store. */
  scope(pool: Pool): ClaimScope | undefined;
  /**
   * Asks the dispatcher to fill every pool's free slots (a task enqueued by a step is in its
   * workflow's pool now, which a registration may have changed while the step ran).
   */
  wake(): void;
}

/** The slots a unit hands on in one pool, and the tasks its outcomes enqueued there. */
interface HandedOn {
  lives: LiveAttempt[];
  enqueued: number[];
}

/** The slots handed on in one unit, by pool: claimed together at its end. */
const handedOn = new WeakMap<Work, Map<Pool, HandedOn>>();

/** The unit's map of `units`, made on its first use with `claim` set to run at the unit's end. */
function ofUnit<T>(
  units: WeakMap<Work, Map<Pool, T>>,
  work: Work,
  claim: (byPool: Map<Pool, T>) => Promise<void>,
): Map<Pool, T> {
  let byPool = units.get(work);
  if (byPool === undefined) {
    const made = new Map<Pool, T>();
    units.set(work, made);
    work.atEnd(() => claim(made));
    byPool = made;
  }
  return byPool;
}

/**
 * Inside `live`'s outcome unit: claims a task for the slot `live` frees, started on commit. The
 * claim is made at the unit's end, one for every slot of a pool its outcomes handed on (several
 * outcomes share a unit, `UnitOfWork.grouped`). The outcome's new ready tasks (`enqueued`) wake
 * the dispatcher after the commit unless that claim took every one of them: then the ready
 * tasks and the free slots are what they were before the unit, and a claim would find what the
 * last one found. Answers false when no claim is made for the slot (the caller wakes then).
 */
export async function handOff(
  owner: SlotOwner,
  work: Work,
  live: LiveAttempt,
  enqueued: readonly number[],
): Promise<boolean> {
  const pool = owner.registry.pools.get(live.pool);
  if (!pool || !live.holdsSlot || !owner.mayClaim(pool)) return false;
  const pools = ofUnit(handedOn, work, (byPool) => claimHandedOn(owner, work, byPool));
  const handed = pools.get(pool);
  if (handed) {
    handed.lives.push(live);
    handed.enqueued.push(...enqueued);
  } else pools.set(pool, { lives: [live], enqueued: [...enqueued] });
  return true;
}

async function claimHandedOn(
  owner: SlotOwner,
  work: Work,
  pools: Map<Pool, HandedOn>,
): Promise<void> {
  for (const [pool, { lives, enqueued }] of pools) {
    // No claim while attempts wait to take a slot back (the dispatcher serves them first).
    const claiming = owner.mayClaim(pool);
    const claimed = claiming
      ? await claimInto(
          work,
          owner.registry.workflowsOnPool(pool.name),
          lives.length,
          owner.scope(pool),
        )
      : [];
    for (const [i, next] of claimed.entries()) {
      const live = lives[i];
      work.after(() => {
        // The slot changes hands: `live` no longer frees it when it finishes.
        live.holdsSlot = false;
        pool.inFlight -= 1;
        owner.start(pool, next);
      });
    }
    const taken = new Set(claimed.map((c) => c.task.id));
    if (enqueued.some((id) => !taken.has(id))) work.after(() => owner.wake());
    else if (claiming && claimed.length < lives.length) {
      // The store had no claimable task left (the claim runs under the write lock): the slots
      // not handed on free nothing to claim for unless the pool is woken before they are freed.
      const mark = pool.wakes;
      for (const live of lives.slice(claimed.length)) {
        work.after(() => {
          live.foundNothingAt = mark;
        });
      }
    }
  }
}

export interface SlotReservation {
  /**
   * Inside the unit: claims the next task for the reserved slot at the unit's end, one claim
   * for every slot of a pool the unit's submits reserved, started on commit. `own` is the task
   * the submit enqueued (its run's start task).
   */
  claim(work: Work, own: number): void;
  /** Once the unit committed: whether its claim took `own` (nothing left for the dispatcher). */
  readonly tookOwn: boolean;
  /** After the unit (committed or not): gives the slot back unless a claim took it. */
  settle(): void;
}

/** A reservation as its pool's claim at the unit's end sees it. */
interface Reserved {
  own: number;
  /** The slot changes hands to the task claimed for it (on commit). */
  take(claimed: Claimed): void;
  /** The claim took `own` (on commit). */
  tookOwn(): void;
}

/** The slots reserved in one unit, by pool: claimed together at its end. */
const reservedIn = new WeakMap<Work, Map<Pool, Reserved[]>>();

/**
 * Reserves a free slot of `poolName` for a unit about to run. The reservation counts against
 * the capacity while the unit runs (`pool.reserved`), so a dispatcher claim in the same batch
 * cannot take the slot too; `settle` returns it if the unit claimed nothing or rolled back.
 */
export function reserveSlot(owner: SlotOwner, poolName: string): SlotReservation | null {
  const pool = owner.registry.pools.get(poolName);
  if (!pool || freeSlots(pool) <= 0 || !owner.mayClaim(pool)) return null;
  pool.reserved += 1;
  let held = true;
  let tookOwn = false;
  return {
    claim(work, own) {
      const pools = ofUnit(reservedIn, work, (byPool) => claimReserved(owner, work, byPool));
      const reserved: Reserved = {
        own,
        take(next) {
          held = false;
          pool.reserved -= 1;
          owner.start(pool, next);
        },
        tookOwn() {
          tookOwn = true;
        },
      };
      const list = pools.get(pool);
      if (list) list.push(reserved);
      else pools.set(pool, [reserved]);
    },
    get tookOwn() {
      return tookOwn;
    },
    settle() {
      if (!held) return;
      held = false;
      pool.reserved -= 1;
    },
  };
}

async function claimReserved(
  owner: SlotOwner,
  work: Work,
  pools: Map<Pool, Reserved[]>,
): Promise<void> {
  for (const [pool, list] of pools) {
    const workflows = owner.registry.workflowsOnPool(pool.name);
    const claimed = await claimInto(work, workflows, list.length, owner.scope(pool));
    const taken = new Set(claimed.map((c) => c.task.id));
    for (const [i, next] of claimed.entries()) work.after(() => list[i].take(next));
    for (const r of list) if (taken.has(r.own)) work.after(() => r.tookOwn());
  }
}
