// The scheduler: the engine's timed work of schedules. It arms one timer on the engine's clock
// for the earliest next due moment of the enabled schedules; when it rings, every schedule with
// a due moment it has not fired fires once (commands/runs.ts `submitScheduledRun`: the fire
// record and the run commit together, unique on schedule and due moment). At start, a moment
// missed while no server ran fires once (`catchup = "once"`) or is passed over (`"skip"`).

import { submitScheduledRun } from "./commands/runs.ts";
import type { EngineCore } from "./core.ts";
import type { ScheduleRecord } from "./domain.ts";
import { EngineError } from "./errors.ts";
import { latestDue, nextDue } from "./schedule-times.ts";

export class Scheduler {
  readonly #core: EngineCore;
  #cancel: (() => void) | null = null;
  #running = false;
  /** Moments at or before this were missed (the server was not running): catch-up rules. */
  #watchedFrom = 0;
  #pass: Promise<void> = Promise.resolve();

  readonly #onError: (err: unknown) => void;

  /** `onError` hears a pass that failed (the store unreachable); the next pass tries again. */
  constructor(core: EngineCore, onError: (err: unknown) => void = () => {}) {
    this.#core = core;
    this.#onError = onError;
  }

  /** Fires what was missed (by each schedule's catch-up), then arms the timer. */
  async start(): Promise<void> {
    this.#running = true;
    this.#watchedFrom = this.#core.clock.now();
    await this.#fireDue(true);
    await this.refresh();
  }

  stop(): void {
    this.#running = false;
    this.#cancel?.();
    this.#cancel = null;
  }

  /** Re-reads the schedules and re-arms (after a schedule changed); resolves once armed. */
  refresh(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    this.#pass = this.#pass.then(() => this.#arm()).catch(this.#onError);
    return this.#pass;
  }

  /** Settles once the pass under way (a fire included) is done; for tests. */
  idle(): Promise<void> {
    return this.#pass;
  }

  async #arm(): Promise<void> {
    this.#cancel?.();
    this.#cancel = null;
    if (!this.#running) return;
    const now = this.#core.clock.now();
    let next: number | null = null;
    for (const s of await this.#core.store.listSchedules()) {
      if (!s.enabled) continue;
      const due = nextDue(s.cron, s.timezone, now);
      if (due !== null && (next === null || due < next)) next = due;
    }
    if (next === null || !this.#running) return;
    this.#cancel = this.#core.clock.at(next, () => {
      this.#pass = this.#pass
        .then(() => this.#fireDue(false))
        .catch(this.#onError)
        // Armed again even after a failed pass (reported through onError), for the next moment.
        .then(() => this.#arm())
        .catch(this.#onError);
    });
  }

  async #fireDue(atStart: boolean): Promise<void> {
    const now = this.#core.clock.now();
    for (const s of await this.#core.store.listSchedules()) {
      if (!this.#running) return;
      if (!s.enabled) continue;
      const due = latestDue(s.cron, s.timezone, now);
      if (due === null || due < s.created) continue;
      const last = await this.#core.store.lastScheduleFire(s.name);
      if (last && last.scheduled_at >= due) continue;
      const missed = atStart || due <= this.#watchedFrom;
      if (missed && s.catchup === "skip") continue;
      await fire(this.#core, s, due);
    }
  }
}

/** One fire of `s` for its due moment `at`; a refusal of the submit is an event, not a crash. */
export async function fire(
  core: EngineCore,
  s: ScheduleRecord,
  at: number,
): Promise<string | null> {
  try {
    const input = { title: s.title, input: s.input };
    return await submitScheduledRun(core, s.workflow, input, { schedule: s.name, scheduledAt: at });
  } catch (err) {
    if (!(err instanceof EngineError)) throw err;
    const reason = err.code === "unknown_workflow" ? "unknown_workflow" : "rejected";
    await core.uow.run(async (work) => {
      work.emit("schedule.skipped", null, null, {
        schedule: s.name,
        scheduled_at: at,
        workflow: s.workflow,
        reason,
        message: err.message,
      });
    });
    return null;
  }
}
