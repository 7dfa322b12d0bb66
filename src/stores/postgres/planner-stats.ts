// Planner statistics while the tables are young. PostgreSQL plans from statistics ANALYZE
// gathers, and autovacuum gathers them late for a table that starts empty and grows fast: it
// looks once a minute (autovacuum_naptime) and only after 10% of the rows changed. Until then
// the planner believes `runs` and `tasks` hold a handful of rows, and the claim (claims.ts)
// becomes a sort of every ready attempt instead of a walk of the dispatch list in order: at
// 2,000 queued runs that is 8 ms a claim instead of 0.3 ms, on the one writer connection
// (docs/benchmarks.md, "PostgreSQL"). So the store analyzes the hot tables itself while they
// are young: after 300 events committed since it opened, then 600, 1,200, ... up to 307,200,
// each time on a read connection in the background (ANALYZE takes no lock that blocks reads or writes;
// the writer's prepared statements are planned again when it ends). Past that, autovacuum's
// own schedule is close enough and the store stops. Events, not transactions, measure the
// rows written: one unit of work may carry the outcomes of many attempts (engine "Shared
// units"), and every change of a run or task stores an event.
import type pg from "pg";

const FIRST = 300;
const LAST = 307_200;
const TABLES = "runs, tasks, events, arrivals, requests";

export class PlannerStats {
  /** The highest event id committed so far (null: none seen since the store opened). */
  #last: number | null = null;
  #events = 0;
  #next = FIRST;
  #running: Promise<void> | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /**
   * Counts the events of a commit (`lastEventId`, the highest it stored); starts an ANALYZE
   * when the count reaches the next mark.
   */
  committed(lastEventId: number): void {
    const before = this.#last ?? lastEventId;
    this.#last = Math.max(before, lastEventId);
    this.#events += this.#last - before;
    if (this.#events < this.#next || this.#next > LAST || this.#running) return;
    this.#next *= 2;
    this.#running = this.pool
      .query(`ANALYZE ${TABLES}`)
      .then(
        () => {},
        () => {}, // statistics are an optimization: a failed ANALYZE changes nothing else
      )
      .finally(() => {
        this.#running = null;
      });
  }

  /** Waits for an ANALYZE under way (close). */
  async idle(): Promise<void> {
    await this.#running;
  }
}
