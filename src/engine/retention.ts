// Retention (`[server] retain`): an engine-owned sweeper that deletes ended runs (completed,
// failed, cancelled) whose last change, their end, is older than the retention, on the engine's
// clock. It sweeps at start and then every SWEEP_EVERY_MS; a sweep deletes RETENTION_BATCH runs
// per unit of work, oldest first, with a turn of the event loop between batches, so submits and
// claims interleave with it. Each deleted run publishes `run.deleted` with reason `retention`.
import { deleteChunk } from "./commands/bulk.ts";
import type { EngineCore } from "./core.ts";
import { TERMINAL_RUN_STATUSES } from "./domain.ts";

export const SWEEP_EVERY_MS = 60_000;
export const RETENTION_BATCH = 100;

export class RetentionSweeper {
  readonly #core: EngineCore;
  readonly #retainMs: number;
  readonly #onError: (err: unknown) => void;
  #cancel: (() => void) | null = null;
  #sweeping: Promise<number> | null = null;
  #stopped = true;

  constructor(core: EngineCore, retainMs: number, onError: (err: unknown) => void) {
    this.#core = core;
    this.#retainMs = retainMs;
    this.#onError = onError;
  }

  /** Sweeps now, then every SWEEP_EVERY_MS of the engine's clock until `stop()`. */
  start(): void {
    this.#stopped = false;
    this.#tick();
  }

  stop(): void {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = null;
  }

  /** The sweep in progress, if any (answers how many runs it deleted). */
  get sweeping(): Promise<number> | null {
    return this.#sweeping;
  }

  #tick(): void {
    if (this.#stopped) return;
    if (!this.#sweeping) {
      this.#sweeping = this.sweep()
        .catch((err) => {
          this.#onError(err);
          return 0;
        })
        .finally(() => {
          this.#sweeping = null;
        });
    }
    this.#cancel = this.#core.clock.at(this.#core.clock.now() + SWEEP_EVERY_MS, () => this.#tick());
  }

  /** One sweep: deletes every ended run older than the retention; answers how many. */
  async sweep(): Promise<number> {
    const core = this.#core;
    const before = core.clock.now() - this.#retainMs;
    let deleted = 0;
    while (!this.#stopped) {
      const runs = await core.store.selectRuns({
        statuses: TERMINAL_RUN_STATUSES,
        updatedBefore: before,
        limit: RETENTION_BATCH,
      });
      if (!runs.length) break;
      const result = { done: [], refused: [], more: false, next: null };
      await core.uow.run(async (work) => {
        // Read again in the unit: a run re-opened meanwhile is no longer ended nor old.
        const still = [];
        for (const run of runs) {
          const now = await work.tx.getRun(run.id);
          if (now && TERMINAL_RUN_STATUSES.includes(now.status) && now.updated < before) {
            still.push(now);
          }
        }
        await deleteChunk(core, work, still, result, "retention");
      });
      deleted += result.done.length;
      if (runs.length < RETENTION_BATCH) break;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    return deleted;
  }
}
