// Ids a batch hands out itself, so that the statements that store new events and tasks need no
// answer (they are sent and not waited for, like every `Db.write`). The batch holds the schema's
// write lock from BEGIN to COMMIT (transaction.ts) and every insert of events and tasks on the
// schema happens under that lock, so what BEGIN read is what the schema holds until the batch
// ends:
// - events: the `events` counter (events.ts). Each append bumps it by its count only if it still
//   holds the value the batch expects, else the ids come out NULL and the insert fails (the
//   unit fails; nothing is ever stored under a wrong id). A unit rolled back to its savepoint
//   gives its ids back, as the counter's row is rolled back with it.
// - tasks: the identity sequence of `tasks.id`. The inserts name their ids (OVERRIDING SYSTEM
//   VALUE) counted on from the sequence's value, and the batch moves the sequence past them
//   before its COMMIT. Sequences are not transactional: ids of a rolled-back unit or batch are
//   not given back (as with identity columns, never reused).

/** What BEGIN read, after the lock: the events counter and the tasks sequence. */
export interface BatchStart {
  events: number;
  /** The highest task id the sequence has handed out (0: none yet). */
  tasks: number;
}

/** BEGIN's reads, in the order `BATCH_START` answers them. */
export const BATCH_START = `SELECT (SELECT value FROM counters WHERE name = 'events') AS events,
  (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM tasks_id_seq) AS tasks`;

/** The statement that moves the tasks sequence past the ids the batch handed out. */
export function tasksSequenceText(last: number): string {
  return `SELECT setval('tasks_id_seq', ${Math.trunc(last)})`;
}

export class BatchIds {
  #events: number | null = null;
  #tasks: number | null = null;
  /** The highest task id handed out by this batch (0: none). */
  lastTask = 0;

  constructor(private readonly start: Promise<BatchStart>) {}

  async #known(): Promise<void> {
    if (this.#events !== null) return;
    const start = await this.start;
    // Another take may have read it meanwhile: the first one's values stand.
    if (this.#events !== null) return;
    this.#events = start.events;
    this.#tasks = start.tasks;
  }

  /** Takes `n` event ids; answers the counter's value before them (the first id is one more). */
  async takeEvents(n: number): Promise<number> {
    await this.#known();
    const before = this.#events!;
    this.#events = before + n;
    return before;
  }

  /** Takes `n` task ids; answers the first. */
  async takeTasks(n: number): Promise<number> {
    await this.#known();
    const first = this.#tasks! + 1;
    this.#tasks = this.#tasks! + n;
    this.lastTask = this.#tasks;
    return first;
  }

  /** The events counter as the batch's statements so far leave it (null: not read yet). */
  eventsMark(): number | null {
    return this.#events;
  }

  /**
   * Back to `mark` (a unit rolled back to its savepoint gave its event ids back); a mark taken
   * before BEGIN's reads came back is the counter BEGIN read.
   */
  async resetEvents(mark: number | null): Promise<void> {
    if (mark !== null) this.#events = mark;
    else if (this.#events !== null) this.#events = (await this.start).events;
  }
}
