// The `runs` rows one group-commit batch has read or written (RETURNING), so a batch reads a run
// once however many of its units ask for it (a step's outcome, its run's settling and the claim
// of the next attempt each want the run). Valid only inside the batch: the batch holds the
// schema's write lock from BEGIN to COMMIT, so no other server changes a row meanwhile, and
// every statement of this store that changes `runs` updates or clears the cache (runs.ts through
// the writer). A unit rolled back to its savepoint clears it (what it wrote is gone).
import type { RunRecord } from "../../engine/index.ts";

export class RunCache {
  readonly #rows = new Map<string, RunRecord>();

  /** A copy of the cached row, or undefined when the batch has not seen the run. */
  get(id: string): RunRecord | undefined {
    const row = this.#rows.get(id);
    return row === undefined ? undefined : { ...row };
  }

  /** The row as the database has it now; answers a copy for the caller. */
  put(row: RunRecord): RunRecord {
    this.#rows.set(row.id, { ...row });
    return row;
  }

  /**
   * `updated` of the cached ones of these runs set to `now` (touchRuns); answers the ones whose
   * row may still need the write (not cached, or cached with another `updated`).
   */
  touch(ids: readonly string[], now: number): string[] {
    const stale: string[] = [];
    for (const id of ids) {
      const row = this.#rows.get(id);
      if (row?.updated === now) continue;
      if (row !== undefined) row.updated = now;
      stale.push(id);
    }
    return stale;
  }

  /** Forgets every row (positions shifted, runs deleted, a unit rolled back). */
  clear(): void {
    this.#rows.clear();
  }
}
