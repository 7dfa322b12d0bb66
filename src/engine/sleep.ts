// Durable timers: `ctx.sleep(seconds)` and `ctx.sleepUntil(date)`. The attempt waits as it does
// on a person (ask.ts): the task goes `waiting` with `sleep_until` set (`task.sleeping`), gives
// up its pool slot and stops its node-timeout clock; at the wake time (the engine's clock) it
// takes a slot back, goes `in_progress` again (`task.resumed`, request_id null) and the call
// returns.
//
// Durability: sleeps are numbered 1, 2, ... in the order the body calls them, and each one's wake
// time is stored in the task row (`sleeps`) in the unit of work that marks it waiting. A body
// run again (after a restart) finds them: a due one resolves at once, one not yet due waits only
// what is left. A server that stops while an attempt sleeps leaves the row `waiting`; the next
// start sets it `ready` with `not_before` = its wake time (engine.ts), so it runs again when due,
// never before, holding no slot meanwhile.
import { enterWait, leaveWait, signalCheck, takeSlotBack, whenNoOtherWaits } from "./ask-waits.ts";
import { type AttemptHandle, stoppedReason } from "./task-context.ts";

/** Parks the attempt until `wake` (epoch ms), unless the call's stored wake time says sooner. */
export async function sleepUntil(h: AttemptHandle, wake: number, ordinal: number): Promise<void> {
  signalCheck(h);
  const at = await park(h, wake, ordinal);
  if (at === null) return;
  const waits = enterWait(h.live);
  try {
    h.live.timer?.pause();
    h.core.slots.release(h.live);
    await until(h, at);
  } finally {
    leaveWait(waits);
  }
  await Promise.race([whenNoOtherWaits(waits), h.live.abort.untilStopped()]);
  await takeSlotBack(h, null);
  h.live.timer?.resume();
}

/**
 * Records the sleep's wake time (the stored one of an earlier run of the body wins) and marks
 * the attempt waiting; answers the wake time, or null when it is already due.
 */
async function park(h: AttemptHandle, wake: number, ordinal: number): Promise<number | null> {
  const parked = await h.core.uow.run(async (work) => {
    const row = await work.tx.getTask(h.task.id);
    if (!row || row.claim !== h.live.claim) return undefined;
    const sleeps = [...(row.sleeps ?? [])];
    const recorded = sleeps[ordinal - 1];
    const at = typeof recorded === "number" ? recorded : wake;
    if (at <= work.now) return null;
    while (sleeps.length < ordinal - 1) sleeps.push(null as unknown as number);
    sleeps[ordinal - 1] = at;
    const done = await work.tx.updateTask(
      h.task.id,
      { status: "waiting", waiting_since: work.now, sleep_until: at, sleeps },
      { status: ["in_progress", "waiting"], claim: h.live.claim },
    );
    if (!done) return undefined;
    work.emit("task.sleeping", h.task.run_id, h.task.id, {
      node: h.task.node,
      ordinal,
      until: new Date(at).toISOString(),
    });
    return at;
  });
  if (parked === undefined) throw stoppedReason(h);
  return parked;
}

function until(h: AttemptHandle, at: number): Promise<void> {
  const signal = h.live.abort.signal;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      cancel();
      reject(signal.reason);
    };
    const cancel = h.core.clock.at(at, () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
