// A unit of work is one store transaction plus the events that describe it. Events are
// collected while the transaction runs, stored by the same transaction, and published on the
// bus only after it committed, so subscribers never see a change that rolled back.
import type { EventRecord, Json, NewEvent } from "./domain.ts";
import type { EventBus } from "./event-bus.ts";
import type { Store, StoreWriter } from "./store.ts";

export interface Work {
  readonly tx: StoreWriter;
  /** The transaction's clock: one instant for every row and event it writes. */
  readonly now: number;
  emit(
    name: string,
    runId: string | null,
    taskId: number | null,
    data: Record<string, unknown>,
  ): void;
  /** How many events were emitted so far; pass it to `emitAt` to place an event earlier. */
  mark(): number;
  emitAt(
    mark: number,
    name: string,
    runId: string | null,
    taskId: number | null,
    data: Record<string, unknown>,
  ): void;
  /** Runs after commit (e.g. abort a live attempt, wake a pool). */
  after(fn: () => void): void;
  /** Turns the events emitted so far for `runId` into unstored ones (the run is being deleted). */
  unstoreRun(runId: string): void;
  /** Events that are published but never stored (`run.deleted`). */
  emitUnstored(name: string, runId: string | null, data: Record<string, Json>): void;
}

export class UnitOfWork {
  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
  ) {}

  async run<T>(fn: (work: Work) => Promise<T>): Promise<T> {
    const pending: NewEvent[] = [];
    const unstored: EventRecord[] = [];
    const afters: Array<() => void> = [];
    let stored: EventRecord[] = [];
    const result = await this.store.transact(async (tx) => {
      pending.length = 0;
      unstored.length = 0;
      afters.length = 0;
      const now = Date.now();
      const work: Work = {
        tx,
        now,
        emit: (name, run_id, task_id, data) => pending.push({ name, run_id, task_id, data }),
        mark: () => pending.length,
        emitAt: (mark, name, run_id, task_id, data) =>
          pending.splice(mark, 0, { name, run_id, task_id, data }),
        after: (f) => afters.push(f),
        unstoreRun: (runId) => {
          for (const e of pending.filter((p) => p.run_id === runId)) {
            unstored.push({ ...e, id: null, created: now });
          }
          const kept = pending.filter((p) => p.run_id !== runId);
          pending.splice(0, pending.length, ...kept);
        },
        emitUnstored: (name, run_id, data) =>
          unstored.push({ id: null, name, run_id, task_id: null, data, created: now }),
      };
      const value = await fn(work);
      stored = pending.length ? await tx.appendEvents(pending, now) : [];
      return value;
    });
    this.bus.publish(stored);
    this.bus.publish(unstored);
    for (const f of afters) f();
    return result;
  }
}
