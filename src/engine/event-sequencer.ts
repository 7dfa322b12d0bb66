// Publishing the events of several servers in one order. Every server's subscribers (the SSE
// streams, the engine's own listeners) must see each committed event once, in id order, with
// no gap: the events another server committed arrive only as a notice, and are read from the
// table. Event ids follow commit order (every transaction on the schema holds its write lock),
// so once a unit committed id N, every smaller id is committed too, or was deleted with its run.
//
// The common case costs nothing: a unit whose first id follows the last one published is
// published at once. Otherwise its events wait, and the table is read after the last published
// id until it is exhausted; what the table holds is published in order (ids missing from it
// belong to deleted runs), then the waiting local events. A read started before a local commit
// may miss it, so a local commit or a notice during a read asks for one more read.
import type { EventRecord } from "./domain.ts";
import type { EventBus } from "./event-bus.ts";
import type { StoreReader } from "./store.ts";

const PAGE = 500;

/** Events another server committed (or published unstored), as this server published them. */
const remoteEvents = new WeakSet<EventRecord>();

/**
 * Whether another server sharing the store committed the event: a listener that accounts for
 * what this server did (its logs, metrics, traces) passes over such events, so that the sum
 * over the servers counts each event once.
 */
export function isRemote(event: EventRecord): boolean {
  return remoteEvents.has(event);
}

/** Marks events as another server's. */
export function markRemote(events: readonly EventRecord[]): void {
  for (const e of events) remoteEvents.add(e);
}

/** A stored event's id (only unstored events have none). */
const idOf = (e: EventRecord): number => e.id ?? 0;

export class EventSequencer {
  #last: number;
  readonly #waiting = new Map<number, EventRecord>();
  #reading = false;
  #again = false;

  constructor(
    private readonly store: StoreReader,
    private readonly bus: EventBus,
    /** The highest id already committed when the sequencer starts: published before it. */
    last: number,
    /** Events read from the table that were not committed here, after they were published. */
    private readonly onRemote: (events: EventRecord[]) => void,
    private readonly onError: (err: unknown) => void,
  ) {
    this.#last = last;
  }

  /** The highest id published. */
  get last(): number {
    return this.#last;
  }

  /** A unit committed here. */
  local(stored: EventRecord[], unstored: EventRecord[]): void {
    if (stored.length > 0) {
      if (idOf(stored[0]) === this.#last + 1 && this.#waiting.size === 0) {
        this.bus.publish(stored);
        this.#last = idOf(stored[stored.length - 1]);
      } else {
        for (const e of stored) if (idOf(e) > this.#last) this.#waiting.set(idOf(e), e);
        this.catchUp();
      }
    }
    this.bus.publish(unstored);
  }

  /** Another server committed events (a notice, or a periodic check): read the table. */
  catchUp(): void {
    if (this.#reading) {
      this.#again = true;
      return;
    }
    this.#reading = true;
    void this.#read()
      .catch(this.onError)
      .finally(() => {
        this.#reading = false;
        // A failed read leaves local events waiting: the next notice or check reads again.
      });
  }

  async #read(): Promise<void> {
    do {
      this.#again = false;
      for (;;) {
        const page = await this.store.listEvents({ after: this.#last, limit: PAGE });
        const remote: EventRecord[] = [];
        const out: EventRecord[] = [];
        for (const e of page) {
          const id = idOf(e);
          if (id <= this.#last) continue;
          const mine = this.#waiting.get(id);
          if (mine) this.#waiting.delete(id);
          else {
            remote.push(e);
            remoteEvents.add(e);
          }
          out.push(mine ?? e);
          this.#last = id;
        }
        this.bus.publish(out);
        if (remote.length) this.onRemote(remote);
        if (page.length < PAGE) break;
      }
    } while (this.#again);
    // Waiting events the table no longer holds were committed before this read began (their
    // runs deleted since): everything below them is published, so they go now, in order.
    if (this.#waiting.size === 0) return;
    const rest = [...this.#waiting.values()].sort((a, b) => idOf(a) - idOf(b));
    this.#waiting.clear();
    const out = rest.filter((e) => idOf(e) > this.#last);
    this.bus.publish(out);
    if (out.length) this.#last = idOf(out[out.length - 1]);
  }
}
