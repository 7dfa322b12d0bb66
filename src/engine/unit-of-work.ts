// A unit of work is one store transaction plus the events that describe it. Events are
// collected while the transaction runs, stored by the same transaction, and published on the
// bus only after it committed, so subscribers never see a change that rolled back.
import type { Clock } from "./clock.ts";
import type { EventRecord, NewEvent, TaskRecord } from "./domain.ts";
import type { EventBus } from "./event-bus.ts";
import {
  ATTRIBUTED_EVENT_NAMES,
  type EphemeralEventName,
  type EventData,
  type StoredEventName,
} from "./events.ts";
import type { EngineObserver } from "./observer.ts";
import type { Store, StoreWriter, TaskUpdate } from "./store.ts";

export interface Work {
  readonly tx: StoreWriter;
  /** The transaction's clock: one instant for every row and event it writes. */
  readonly now: number;
  /**
   * The operator whose request this unit carries out (their name, as authenticated), or null
   * for the engine's own work, an agent's, and a server without auth. The unit adds it as
   * `operator` to the data of the events an operator's action names (`ATTRIBUTED_EVENT_NAMES`).
   */
  readonly operator: string | null;
  /** Adds an event to store and publish with the transaction; its data as `EVENTS` types it. */
  emit<K extends StoredEventName>(
    name: K,
    runId: string | null,
    taskId: number | null,
    data: EventData<K>,
  ): void;
  /** How many events were emitted so far; pass it to `emitAt` to place an event earlier. */
  mark(): number;
  emitAt<K extends StoredEventName>(
    mark: number,
    name: K,
    runId: string | null,
    taskId: number | null,
    data: EventData<K>,
  ): void;
  /** Runs after commit (e.g. abort a live attempt, wake a pool). */
  after(fn: () => void): void;
  /**
   * Runs inside the unit once its callback (every callback of a shared unit, `grouped`) has
   * finished, before its events are stored: work done once for all of them (one claim for
   * every slot they handed on).
   */
  atEnd(fn: () => Promise<void>): void;
  /** Turns the events emitted so far for `runId` into unstored ones (the run is being deleted). */
  unstoreRun(runId: string): void;
  /** Events that are published but never stored (`run.deleted`). */
  emitUnstored<K extends EphemeralEventName>(
    name: K,
    runId: string | null,
    data: EventData<K>,
  ): void;
}

/** One transaction's `Work`. A class, not an object of closures: one is made per unit of work. */
class UnitWork implements Work {
  readonly pending: NewEvent[] = [];
  readonly unstored: EventRecord[] = [];
  readonly afters: Array<() => void> = [];
  readonly ends: Array<() => Promise<void>> = [];

  constructor(
    readonly tx: StoreWriter,
    readonly now: number,
    readonly operator: string | null,
  ) {}

  /** `data` with `operator` last when this unit is an operator's and `name` names the act. */
  #attributed<D>(name: string, data: D): D {
    if (this.operator === null || !ATTRIBUTED.has(name)) return data;
    return { ...data, operator: this.operator };
  }

  emit<K extends StoredEventName>(
    name: K,
    run_id: string | null,
    task_id: number | null,
    data: EventData<K>,
  ) {
    this.pending.push({ name, run_id, task_id, data: this.#attributed(name, data) });
  }

  mark(): number {
    return this.pending.length;
  }

  emitAt<K extends StoredEventName>(
    mark: number,
    name: K,
    run_id: string | null,
    task_id: number | null,
    data: EventData<K>,
  ) {
    this.pending.splice(mark, 0, { name, run_id, task_id, data: this.#attributed(name, data) });
  }

  after(f: () => void): void {
    this.afters.push(f);
  }

  atEnd(f: () => Promise<void>): void {
    this.ends.push(f);
  }

  unstoreRun(runId: string): void {
    for (const e of this.pending.filter((p) => p.run_id === runId)) {
      this.unstored.push({ ...e, id: null, created: this.now });
    }
    const kept = this.pending.filter((p) => p.run_id !== runId);
    this.pending.splice(0, this.pending.length, ...kept);
  }

  emitUnstored<K extends EphemeralEventName>(
    name: K,
    run_id: string | null,
    data: EventData<K>,
  ): void {
    const attributed = this.#attributed(name, data);
    this.unstored.push({
      id: null,
      name,
      run_id,
      task_id: null,
      data: attributed,
      created: this.now,
    });
  }
}

const ATTRIBUTED: ReadonlySet<string> = new Set(ATTRIBUTED_EVENT_NAMES);

/** The distinct runs `events` are about, in first-seen order. */
function runsOf(events: readonly NewEvent[]): string[] {
  // A Set keeps this linear: a batch submit names a thousand runs in one unit.
  const out = new Set<string>();
  for (const e of events) if (e.run_id !== null) out.add(e.run_id);
  return [...out];
}

/**
 * A task update started before the callback runs (`Sharing.early`): its answer, and whether a
 * task of the same run updated after it in the same call held (`later`). That task was still
 * outstanding when this callback's turn came, in the order the unit runs its callbacks: the
 * callback must not take the run for settled.
 */
export type Early = Promise<{ task: TaskRecord | null; later: boolean }>;

interface Grouped<T> {
  fn: (work: Work, early?: Early) => Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
  key?: string;
  early?: (work: Work) => TaskUpdate;
}

/** The callbacks waiting for a lane's next shared unit, and whether one is asked for. */
interface Group {
  items: Array<Grouped<any>>;
  on: boolean;
}

/** How a callback shares its unit (`UnitOfWork.grouped`). */
export interface Sharing {
  /** Callbacks of one lane and operator share units; other lanes have units of their own. */
  readonly lane: string;
  /** Whose request the callbacks carry out (`Work.operator`); null for the engine. */
  readonly operator?: string | null;
  /** The one run the callback reads and writes, when it touches no other. */
  readonly key?: string;
  /**
   * The callback's first store call, a task update of its run (`key`), which may go out before
   * the callbacks ahead of it in the unit have run: only when each of those names its run, and
   * every callback of the unit with the same run has an early update too (callbacks that change
   * no task of their run but their own), so that nothing ahead of it reads or writes what the
   * update changes but what `Early.later` tells.
   */
  readonly early?: (work: Work) => TaskUpdate;
}

/**
 * Starts the early updates that may go (`Sharing.early`), all in one store call, so that on
 * PostgreSQL they go out as one statement instead of one each.
 */
function startEarly(work: Work, items: ReadonlyArray<Grouped<unknown>>): Array<Early | undefined> {
  // Runs with a callback that has no early update: theirs wait for their turn.
  const waiting = new Set<string>();
  for (const item of items) {
    if (item.key !== undefined && item.early === undefined) waiting.add(item.key);
  }
  let keyed = true;
  const going: number[] = [];
  for (const [i, item] of items.entries()) {
    const may = item.key !== undefined && !waiting.has(item.key) && item.early !== undefined;
    if (keyed && may && items.length > 1) going.push(i);
    keyed &&= item.key !== undefined;
  }
  const early = new Array<Early | undefined>(items.length);
  if (!going.length) return early;
  const answers = work.tx.updateTasks(going.map((i) => items[i].early!(work))).then((all) => {
    // From the last: the runs with an update that held after this one.
    const held = new Set<string>();
    const out = new Array<{ task: TaskRecord | null; later: boolean }>(all.length);
    for (let k = all.length - 1; k >= 0; k--) {
      const key = items[going[k]].key!;
      out[k] = { task: all[k], later: held.has(key) };
      if (all[k] !== null) held.add(key);
    }
    return out;
  });
  for (const [k, i] of going.entries()) {
    const answer = answers.then((all) => all[k]);
    // Awaited by its callback; one that never runs (one ahead of it threw) must not be
    // reported as unhandled.
    answer.catch(() => {});
    early[i] = answer;
  }
  return early;
}

/** Where a committed unit's events go: the bus, or, with several servers, the sequencer. */
export type Publish = (stored: EventRecord[], unstored: EventRecord[]) => void;

export class UnitOfWork {
  /** Replaced by the cluster (cluster.ts), which publishes every server's events in id order. */
  publish: Publish = (stored, unstored) => {
    this.bus.publish(stored);
    this.bus.publish(unstored);
  };

  constructor(
    private readonly store: Store,
    private readonly bus: EventBus,
    private readonly observer: EngineObserver,
    private readonly clock: Clock,
  ) {}

  /** Callbacks waiting to share one unit (`grouped`), by lane, then by operator. */
  readonly #groups = new Map<string, Map<string | null, Group>>();

  /**
   * Runs `fn` in a unit shared with the other `grouped` callbacks of its lane and operator
   * asked for until that unit starts: one transaction, one event append and one set of run
   * touches for all of them, where each would otherwise pay its own (on PostgreSQL a savepoint
   * and an append a unit). They run one after another, in the order asked for, as units in one
   * batch do. If the shared unit fails, each callback runs again in a unit of its own, so one
   * that throws fails alone: a callback must be safe to run again (it changes nothing outside
   * the transaction but through `Work.after`). `fn` gets its early call's answer, when it went
   * (`Sharing.early`).
   */
  grouped<T>(fn: (work: Work, early?: Early) => Promise<T>, sharing: Sharing): Promise<T> {
    const operator = sharing.operator ?? null;
    const group = this.#group(sharing.lane, operator);
    return new Promise<T>((resolve, reject) => {
      const { key, early } = sharing;
      group.items.push({ fn, resolve, reject, key, early } as Grouped<any>);
      if (group.on) return;
      group.on = true;
      void this.#runGroups(group, operator);
    });
  }

  /** The group of `lane` and `operator`, made on first use. */
  #group(name: string, operator: string | null): Group {
    let lane = this.#groups.get(name);
    if (lane === undefined) {
      lane = new Map();
      this.#groups.set(name, lane);
    }
    let group = lane.get(operator);
    if (group === undefined) {
      group = { items: [], on: false };
      lane.set(operator, group);
    }
    return group;
  }

  async #runGroups(group: Group, operator: string | null): Promise<void> {
    while (group.items.length) {
      let taken: Array<Grouped<unknown>> | null = null;
      // Taken when the unit starts (once, should the store run the callback again), so every
      // callback asked for while the unit waited in the queue joins it.
      const take = () => {
        taken ??= group.items.splice(0);
        return taken;
      };
      try {
        const values = await this.run(async (work) => {
          const items = take();
          const early = startEarly(work, items);
          const out: unknown[] = [];
          for (const [i, item] of items.entries()) out.push(await item.fn(work, early[i]));
          return out;
        }, operator);
        for (const [i, item] of take().entries()) item.resolve(values[i]);
      } catch {
        const alone = take().map((item) =>
          this.run(item.fn, operator).then(item.resolve, item.reject),
        );
        await Promise.all(alone);
      }
    }
    group.on = false;
  }

  /** `operator`: whose request the unit carries out (`Work.operator`); null for the engine. */
  async run<T>(fn: (work: Work) => Promise<T>, operator: string | null = null): Promise<T> {
    const queued = performance.now();
    let work: UnitWork | undefined;
    let stored: EventRecord[] = [];
    const result = await this.store.transact(async (tx) => {
      // A fresh Work per try: a callback run again must not see a failed try's events.
      work = new UnitWork(tx, this.clock.now(), operator);
      const value = await fn(work);
      for (const end of work.ends) await end();
      if (work.pending.length) {
        // A run's `updated` is the moment of its last stored event: a task that changed
        // status, a request answered, a log entry, in the same transaction as the change.
        const runs = runsOf(work.pending);
        if (runs.length) await tx.touchRuns(runs, work.now);
        stored = await tx.appendEvents(work.pending, work.now);
      }
      return value;
    });
    this.observer.committed(performance.now() - queued);
    const done = work!;
    this.publish(stored, done.unstored);
    for (const f of done.afters) f();
    return result;
  }
}
