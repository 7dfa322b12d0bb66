// Ids and positions a batch hands out itself, so that the statements that store new events,
// tasks and runs need no answer (they are sent and not waited for, like every `Db.write`). The
// batch holds the schema's write lock from BEGIN to COMMIT (transaction.ts) and every write of
// these tables on the schema happens under that lock, so what BEGIN read is what the schema
// holds until the batch ends, changed only by the batch's own statements:
// - events: the `events` counter (events.ts). Each append bumps it by its count only if it still
//   holds the value the batch expects, else the ids come out NULL and the insert fails (the
//   unit fails; nothing is ever stored under a wrong id). A unit rolled back to its savepoint
//   gives its ids back, as the counter's row is rolled back with it.
// - runs: the dispatch list's last position. A new run takes the next one only if it is still
//   the list's end, else its position is NULL and the insert fails; deleting runs shortens the
//   list (the writer says by how many), moving one does not change its end, and a unit rolled
//   back to its savepoint gives its positions back.
// - tasks: the identity sequence of `tasks.id`. The inserts name their ids (OVERRIDING SYSTEM
//   VALUE) counted on from the sequence's value, and the batch moves the sequence past them
//   before its COMMIT. Sequences are not transactional: ids of a rolled-back unit or batch are
//   not given back (as with identity columns, never reused).

/** What BEGIN read, after the lock. */
export interface BatchStart {
  events: number;
  /** The highest task id the sequence has handed out (0: none yet). */
  tasks: number;
  /** The dispatch list's last position (0: no runs). */
  positions: number;
}

/** BEGIN's reads, as one row. */
export const BATCH_START = `SELECT (SELECT value FROM counters WHERE name = 'events') AS events,
  (SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM tasks_id_seq) AS tasks,
  (SELECT COALESCE(MAX(position), 0) FROM runs) AS positions`;

/** The statement that moves the tasks sequence past the ids the batch handed out. */
export function tasksSequenceText(last: number): string {
  return `SELECT setval('tasks_id_seq', ${Math.trunc(last)})`;
}

/** What a unit may give back when it is rolled back to its savepoint (null: not read yet). */
export type IdsMark = { events: number; positions: number } | null;

export class BatchIds {
  #now: BatchStart | null = null;
  /** The highest task id handed out by this batch (0: none). */
  lastTask = 0;

  constructor(private readonly start: Promise<BatchStart>) {}

  async #known(): Promise<BatchStart> {
    if (this.#now !== null) return this.#now;
    const start = await this.start;
    // Another take may have read it meanwhile: the first one's values stand.
    this.#now ??= { ...start };
    return this.#now;
  }

  /** Takes `n` event ids; answers the counter's value before them (the first id is one more). */
  async takeEvents(n: number): Promise<number> {
    const now = await this.#known();
    const before = now.events;
    now.events += n;
    return before;
  }

  /** Takes `n` task ids; answers the first. */
  async takeTasks(n: number): Promise<number> {
    const now = await this.#known();
    const first = now.tasks + 1;
    now.tasks += n;
    this.lastTask = now.tasks;
    return first;
  }

  /** Takes `n` positions at the list's end; answers the first. */
  async takePositions(n: number): Promise<number> {
    const now = await this.#known();
    const first = now.positions + 1;
    now.positions += n;
    return first;
  }

  /** `n` runs left the list (deleted): its end moves back by as many. */
  async dropPositions(n: number): Promise<void> {
    (await this.#known()).positions -= n;
  }

  /** The counter and the list's end as the batch's statements so far leave them. */
  mark(): IdsMark {
    const now = this.#now;
    return now && { events: now.events, positions: now.positions };
  }

  /**
   * Back to `mark` (a unit rolled back to its savepoint gave its event ids and positions back);
   * a mark taken before BEGIN's reads came back is what BEGIN read.
   */
  async reset(mark: IdsMark): Promise<void> {
    if (this.#now === null) return;
    const to = mark ?? (await this.start);
    this.#now.events = to.events;
    this.#now.positions = to.positions;
  }
}
