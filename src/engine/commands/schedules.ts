// Schedule commands: create or change a schedule, delete it, and bring the schedules of the
// configuration in line at start. Schedules from the configuration (`source = "config"`) are the
// TOML's: the sync writes them and deletes the config rows the TOML no longer has; the API may
// enable or disable them (the flag survives restarts) but not change or delete them. Schedules
// created over the API (`source = "api"`) are the API's and the sync leaves them alone.
import type { EngineCore } from "../core.ts";
import type { Json, ScheduleCatchup, ScheduleRecord } from "../domain.ts";
import { EngineError, missing, refused } from "../errors.ts";
import { checkCron } from "../schedule-times.ts";
import type { Scheduler } from "../scheduler.ts";

/** A schedule as configured or created; absent fields take their defaults. */
export interface ScheduleInput {
  name: string;
  workflow: string;
  cron: string;
  /** IANA time zone; default UTC. */
  timezone?: string;
  title: string;
  input?: Json;
  enabled?: boolean;
  catchup?: ScheduleCatchup;
}

/** Fields to change; absent ones stay as they are. */
export interface SchedulePatch {
  cron?: string;
  timezone?: string;
  title?: string;
  input?: Json;
  enabled?: boolean;
  catchup?: ScheduleCatchup;
}

function recordOf(
  s: ScheduleInput,
  source: ScheduleRecord["source"],
  times: { created: number; updated: number },
  enabled: boolean,
): ScheduleRecord {
  const timezone = s.timezone ?? "UTC";
  checkCron(s.cron, timezone);
  const { name, workflow, cron, title } = s;
  const catchup = s.catchup ?? "once";
  return {
    name,
    workflow,
    cron,
    timezone,
    title,
    input: s.input ?? null,
    enabled,
    catchup,
    source,
    ...times,
  };
}

function build(core: EngineCore, s: ScheduleInput, now: number): ScheduleRecord {
  if (!core.registry.workflows.has(s.workflow)) {
    throw new EngineError("unknown_workflow", `Workflow ${s.workflow} is not registered.`);
  }
  return recordOf(s, "api", { created: now, updated: now }, s.enabled ?? true);
}

/** Creates an API schedule; refuses a name already taken (`conflict`). */
export async function createSchedule(
  core: EngineCore,
  scheduler: Scheduler,
  input: ScheduleInput,
): Promise<ScheduleRecord> {
  const record = await core.uow.run(async (work) => {
    if (await work.tx.getSchedule(input.name)) {
      throw refused(`Schedule ${input.name} exists.`, { schedule: input.name });
    }
    const s = build(core, input, work.now);
    await work.tx.putSchedule(s);
    return s;
  });
  await scheduler.refresh();
  return record;
}

/** Changes a schedule; a configured one only in `enabled`. */
export async function updateSchedule(
  core: EngineCore,
  scheduler: Scheduler,
  name: string,
  patch: SchedulePatch,
): Promise<ScheduleRecord> {
  const record = await core.uow.run(async (work) => {
    const s = await work.tx.getSchedule(name);
    if (!s) throw missing("schedule", name);
    const fields = Object.keys(patch).filter((k) => k !== "enabled");
    if (s.source === "config" && fields.length) {
      throw refused(
        `Schedule ${name} comes from the configuration: only enabled can be changed over the API.`,
        { schedule: name, fields },
      );
    }
    const next: ScheduleRecord = { ...s, ...patch, updated: work.now };
    checkCron(next.cron, next.timezone);
    await work.tx.putSchedule(next);
    return next;
  });
  await scheduler.refresh();
  return record;
}

/** Deletes an API schedule and its fires; a configured one is refused (`conflict`). */
export async function deleteSchedule(
  core: EngineCore,
  scheduler: Scheduler,
  name: string,
): Promise<void> {
  await core.uow.run(async (work) => {
    const s = await work.tx.getSchedule(name);
    if (!s) throw missing("schedule", name);
    if (s.source === "config") {
      throw refused(`Schedule ${name} comes from the configuration: remove it there.`, {
        schedule: name,
      });
    }
    await work.tx.deleteSchedule(name);
  });
  await scheduler.refresh();
}

/**
 * At start, before the engine starts: the configuration's schedules are written (a changed one
 * keeps its fires and, unless the TOML sets it, the enabled flag an operator chose), and config
 * rows the TOML no longer has go. A schedule of an unregistered workflow is kept: its moments
 * are skipped with `schedule.skipped` until the workflow is registered.
 */
export async function syncSchedules(
  core: EngineCore,
  configured: readonly ScheduleInput[],
): Promise<void> {
  const names = new Set(configured.map((s) => s.name));
  await core.uow.run(async (work) => {
    for (const row of await work.tx.listSchedules()) {
      if (row.source === "config" && !names.has(row.name)) await work.tx.deleteSchedule(row.name);
    }
    for (const s of configured) {
      const old = await work.tx.getSchedule(s.name);
      const times = { created: old?.created ?? work.now, updated: work.now };
      const record = recordOf(s, "config", times, s.enabled ?? old?.enabled ?? true);
      await work.tx.putSchedule(record);
    }
  });
}
