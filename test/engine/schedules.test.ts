// Schedules on a real engine and store, driven by a ManualClock: due moments read in a time
// zone, one run per fire with the schedule's title and input, disabled schedules never fire,
// catch-up after downtime (once / skip), an unregistered workflow skipped with an event, and
// two engines on one store firing a moment once. One real-time test of about a second.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { Engine, ManualClock } from "../../src/engine/index.ts";
import { latestDue, nextDue } from "../../src/engine/schedule-times.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const h of harnesses.splice(0)) await h.close();
});

function echo(name: string) {
  const wf = workflow(name);
  wf.node({ start: true }, async function a({}: any, input: unknown) {
    return input;
  });
  return wf;
}

const T0 = Date.UTC(2026, 0, 1, 0, 0, 0);
const HOUR = 3_600_000;

async function harness(clock: ManualClock, dir?: string) {
  const h = await startHarness({ clock, start: false, dir });
  harnesses.push(h);
  h.register(echo("wf"));
  return h;
}

const hourly = { name: "hourly", workflow: "wf", cron: "0 * * * *", title: "Hourly" };

describe("schedule times", () => {
  it("reads the cron expression in the schedule's time zone", () => {
    const noon = Date.UTC(2026, 0, 1, 12);
    // 03:00 in New York (UTC-5 in January) is 08:00 UTC.
    expect(nextDue("0 3 * * *", "America/New_York", noon)).toBe(Date.UTC(2026, 0, 2, 8));
    expect(latestDue("0 3 * * *", "America/New_York", noon)).toBe(Date.UTC(2026, 0, 1, 8));
    expect(nextDue("0 3 * * *", "UTC", noon)).toBe(Date.UTC(2026, 0, 2, 3));
    // A due moment is its own latest due moment; the next is strictly after.
    expect(latestDue("0 * * * *", "UTC", T0)).toBe(T0);
    expect(nextDue("0 * * * *", "UTC", T0)).toBe(T0 + HOUR);
    // Six fields: seconds first.
    expect(nextDue("*/10 * * * * *", "UTC", T0)).toBe(T0 + 10_000);
  });
});

describe("scheduler", () => {
  it("fires once per due moment with the schedule's title and input", async () => {
    const clock = new ManualClock(T0 + 1);
    const h = await harness(clock);
    await h.engine.commands.syncSchedules([{ ...hourly, input: { depth: 2 } }]);
    await h.engine.start();
    expect(await h.store.listRuns()).toHaveLength(0);
    clock.advance(HOUR - 2);
    await h.engine.scheduler.idle();
    expect(await h.store.listRuns()).toHaveLength(0);
    clock.advance(1);
    await h.waitFor(async () => (await h.store.listRuns()).length === 1, "one run");
    await h.engine.scheduler.idle();
    const [run] = await h.store.listRuns();
    expect(run).toMatchObject({ workflow: "wf", title: "Hourly", input: { depth: 2 } });
    const fired = h.named("schedule.fired");
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ run_id: run!.id, data: { scheduled_at: T0 + HOUR } });
    expect(await h.store.lastScheduleFire("hourly")).toMatchObject({
      scheduled_at: T0 + HOUR,
      run_id: run!.id,
    });
    // Half an hour on: nothing new; the next hour fires the next run.
    clock.advance(HOUR / 2);
    await h.engine.scheduler.idle();
    expect(await h.store.listRuns()).toHaveLength(1);
    clock.advance(HOUR / 2);
    await h.waitFor(async () => (await h.store.listRuns()).length === 2, "two runs");
  });

  it("never fires a disabled schedule, and fires it again once enabled", async () => {
    const clock = new ManualClock(T0 + 1);
    const h = await harness(clock);
    await h.engine.commands.syncSchedules([{ ...hourly, enabled: false }]);
    await h.engine.start();
    clock.advance(3 * HOUR);
    await h.engine.scheduler.idle();
    expect(await h.store.listRuns()).toHaveLength(0);
    await h.engine.commands.updateSchedule("hourly", { enabled: true });
    clock.advance(HOUR);
    await h.waitFor(async () => (await h.store.listRuns()).length === 1, "one run");
  });

  it("after downtime fires the missed moment once (catchup once) or not at all (skip)", async () => {
    const clock = new ManualClock(T0 + 1);
    const first = await harness(clock);
    const dir = first.dir;
    await first.engine.commands.syncSchedules([
      hourly,
      { ...hourly, name: "skipping", catchup: "skip" },
    ]);
    await first.engine.start();
    await first.engine.stop();
    // Five hours down: five moments of each schedule missed.
    clock.advance(5 * HOUR + 60_000);
    const second = await startHarness({ clock, start: false, dir });
    harnesses.push(second);
    second.register(echo("wf"));
    await second.engine.start();
    const runs = await second.store.listRuns();
    expect(runs).toHaveLength(1);
    expect(await second.store.lastScheduleFire("hourly")).toMatchObject({
      scheduled_at: T0 + 5 * HOUR,
      run_id: runs[0]!.id,
    });
    expect(await second.store.lastScheduleFire("skipping")).toBeNull();
    // The next moment fires for both.
    clock.advance(HOUR);
    await second.waitFor(async () => (await second.store.listRuns()).length === 3, "3 runs");
  });

  it("skips a moment of an unregistered workflow with an event, without crashing", async () => {
    const clock = new ManualClock(T0 + 1);
    const h = await harness(clock);
    await h.engine.commands.syncSchedules([{ ...hourly, workflow: "gone" }]);
    await h.engine.start();
    clock.advance(HOUR);
    const skipped = await h.waitEvent("schedule.skipped");
    expect(skipped.data).toMatchObject({ reason: "unknown_workflow", workflow: "gone" });
    expect(await h.store.listRuns()).toHaveLength(0);
    expect(h.errors).toStrictEqual([]);
  });

  it("two engines on one store fire a due moment once", async () => {
    const clock = new ManualClock(T0 + 1);
    const h = await harness(clock);
    await h.engine.commands.syncSchedules([hourly]);
    const other = new Engine({ store: h.store, pools: { default: { capacity: 1 } }, clock });
    other.register({ ...h.engine.registry.workflows.get("wf")! });
    await h.engine.start();
    await other.start();
    try {
      clock.advance(HOUR);
      await h.waitFor(async () => (await h.store.listRuns()).length === 1, "one run");
      await Promise.all([h.engine.scheduler.idle(), other.scheduler.idle()]);
      expect(await h.store.listRuns()).toHaveLength(1);
      expect(
        (await h.store.listEvents({})).filter((e) => e.name === "schedule.fired"),
      ).toHaveLength(1);
    } finally {
      await other.stop();
    }
  });

  it("refuses a cron expression the parser cannot read, with its message", async () => {
    const h = await harness(new ManualClock(T0));
    await h.engine.start();
    await expect(
      h.engine.commands.createSchedule({ ...hourly, cron: "0 99 * * *" }),
    ).rejects.toMatchObject({ code: "validation", message: expect.stringContaining("hour") });
    await expect(
      h.engine.commands.createSchedule({ ...hourly, workflow: "nope" }),
    ).rejects.toMatchObject({ code: "unknown_workflow" });
  });

  it("fires an every-second schedule on the system clock", async () => {
    const h = await startHarness({ start: false });
    harnesses.push(h);
    h.register(echo("wf"));
    await h.engine.commands.syncSchedules([{ ...hourly, cron: "* * * * * *" }]);
    await h.engine.start();
    await h.waitFor(async () => (await h.store.listRuns()).length >= 1, "a run", 3_000);
  });
});
