// Planner statistics while the tables are young. PostgreSQL plans from statistics ANALYZE
// gathers, and autovacuum gathers them late for a table that starts empty and grows fast: it
// looks once a minute (autovacuum_naptime) and only after 10% of the rows changed. Until then
// the planner believes `runs` and `tasks` hold a handful of rows, and the claim (claims.ts)
// becomes a sort of every ready attempt instead of a walk of the dispatch list in order: at
// 2,000 queued runs that is 8 ms a claim instead of 0.3 ms, on the one writer connection
// (docs/benchmarks.md, "PostgreSQL"). So the store analyzes the hot tables itself while they
// are young: after 100 committed units of work, then 200, 400, ... up to 102,400, each time
// on a read connection in the background (ANALYZE takes no lock that blocks reads or writes;
// the writer's prepared statements are planned again when it ends). Past that, autovacuum's
// own schedule is close enough and the store stops.
import type pg from "pg";

const FIRST = 100;
const LAST = 102_400;
const TABLES = "runs, tasks, events, arrivals, requests";

export class PlannerStats {
  #units = 0;
  #next = FIRST;
  #running: Promise<void> | null = null;

  constructor(private readonly pool: pg.Pool) {}

  /** Counts one unit of work; starts an ANALYZE when the count reaches the next mark. */
  note(): void {
    this.#units += 1;
    if (this.#units < this.#next || this.#next > LAST || this.#running) return;
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
