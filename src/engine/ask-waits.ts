// The asks of one attempt waiting on a person now. A body may ask several people at once
// (`Promise.all` of asks, or an agent's permission request beside the body's own ask): the
// attempt waits on a person, holding no pool slot and with its node timeout clock stopped,
// until the last of them is answered; only then does it take a slot back and resume, once.
// Counted here, beside the live attempt, rather than in the store: the waits are this
// process's promises.
import type { LiveAttempt } from "./core.ts";
import type { AttemptHandle } from "./task-context.ts";

export interface OpenWaits {
  count: number;
  /** Answered asks waiting for the others to be answered too. */
  onNone: Array<() => void>;
}

const openWaits = new WeakMap<LiveAttempt, OpenWaits>();

/** One more ask of `live` waits on a person. */
export function enterWait(live: LiveAttempt): OpenWaits {
  let waits = openWaits.get(live);
  if (!waits) {
    waits = { count: 0, onNone: [] };
    openWaits.set(live, waits);
  }
  waits.count += 1;
  return waits;
}

/** An ask stopped waiting (answered, or its wait ended); the last one lets the others go. */
export function leaveWait(waits: OpenWaits): void {
  waits.count -= 1;
  if (waits.count === 0) for (const go of waits.onNone.splice(0)) go();
}

/** Resolves once no ask of the attempt waits on a person any more. */
export function whenNoOtherWaits(waits: OpenWaits): Promise<void> {
  if (waits.count === 0) return Promise.resolve();
  return new Promise((go) => waits.onNone.push(go));
}

/** Whether an ask of `live` still waits on a person. */
export function stillWaiting(live: LiveAttempt): boolean {
  return (openWaits.get(live)?.count ?? 0) > 0;
}

/**
 * Ends the attempt's wait (on a person, or a sleep when `requestId` is null): back to
 * `in_progress` if it still holds its claim, with `task.resumed` saying how long it waited.
 * Where several servers share the store, only while its pool has room over all of them:
 * answers false when the pool is full everywhere (the task stays waiting).
 */
async function resumeFromWait(h: AttemptHandle, requestId: number | null): Promise<boolean> {
  const pool = h.core.registry.pools.get(h.live.pool);
  const scope = pool ? h.core.claimScope(pool.capacity) : undefined;
  const room = scope && {
    workflows: h.core.registry.workflowsOnPool(h.live.pool),
    capacity: scope.capacity,
  };
  return h.core.uow.run(async (work) => {
    const task = await work.tx.getTask(h.task.id);
    const resumed = await work.tx.updateTask(
      h.task.id,
      { status: "in_progress", waiting_since: null, sleep_until: null },
      { status: ["waiting"], claim: h.live.claim, ...(room ? { room } : {}) },
    );
    // Not ours any more (the stop that took it follows), or no room: which, the row says.
    if (!resumed) return !(room && task?.status === "waiting" && task.claim === h.live.claim);
    const waited = task?.waiting_since ? (work.now - task.waiting_since) / 1000 : 0;
    work.emit("task.resumed", h.task.run_id, h.task.id, {
      node: h.task.node,
      request_id: requestId,
      waited_s: waited,
    });
    return true;
  });
}

/** Events after which a pool may have room again on some server. */
const FREEING = new Set([
  "task.done",
  "task.failed",
  "task.dead_lettered",
  "task.waiting",
  "task.sleeping",
  "task.cancelled",
  "task.status_set",
  "run.cancelled",
  "run.deleted",
  "engine.recovered",
  "workflow.unregistered",
]);
/** The longest a resumer waits for such an event before it looks again. */
const ROOM_POLL_MS = 1000;

/**
 * After its wait ends: takes a pool slot back (before any new claim on the pool) and resumes.
 * Where several servers share the store and the pool is full on all of them, gives the slot
 * back and tries again after the next event that may free one (or a second, whichever first).
 */
export async function takeSlotBack(h: AttemptHandle, requestId: number | null): Promise<void> {
  for (;;) {
    await Promise.race([h.core.slots.reacquire(h.live), h.live.abort.untilStopped()]);
    signalCheck(h);
    if (await resumeFromWait(h, requestId)) return;
    h.core.slots.release(h.live);
    await roomMayBeFree(h);
  }
}

function roomMayBeFree(h: AttemptHandle): Promise<void> {
  return new Promise((resolve) => {
    let cancel = () => {};
    const done = () => {
      unsubscribe();
      cancel();
      h.live.abort.signal.removeEventListener("abort", done);
      resolve();
    };
    const unsubscribe = h.core.bus.subscribe((e) => {
      if (FREEING.has(e.name)) done();
    });
    cancel = h.core.clock.at(h.core.clock.now() + ROOM_POLL_MS, done);
    h.live.abort.signal.addEventListener("abort", done, { once: true });
  });
}

/** Throws the attempt's stop reason once it has been stopped. */
export function signalCheck(h: AttemptHandle): void {
  if (h.live.abort.aborted) throw h.live.abort.reason;
}
