// Schedules and their fires: stored, replaced, listed by name, deleted with their fires; a fire
// is stored once per (schedule, scheduled_at), so a second fire of one moment stores nothing.
import { describe, expect, it } from "vitest";
import type { ScheduleRecord } from "../../../src/engine/index.ts";
import type { Harness } from "./fixtures.ts";

export function schedulesContract(h: Harness): void {
  describe("schedules", () => {
    const schedule = (over: Partial<ScheduleRecord> = {}): ScheduleRecord => ({
      name: "nightly",
      workflow: "wf",
      cron: "0 3 * * *",
      timezone: "Europe/Paris",
      title: "Nightly",
      input: { depth: 2, tags: ["a"] },
      enabled: true,
      catchup: "once",
      source: "config",
      created: 1_000,
      updated: 1_000,
      ...over,
    });

    it("stores, replaces, lists by name and deletes a schedule", async () => {
      await h.store.transact(async (tx) => {
        await tx.putSchedule(schedule());
        await tx.putSchedule(schedule({ name: "hourly", input: null, enabled: false }));
      });
      expect(await h.store.getSchedule("nightly")).toStrictEqual(schedule());
      expect((await h.store.listSchedules()).map((s) => s.name)).toStrictEqual([
        "hourly",
        "nightly",
      ]);
      const changed = schedule({ cron: "*/5 * * * *", enabled: false, updated: 2_000 });
      await h.store.transact((tx) => tx.putSchedule(changed));
      expect(await h.store.getSchedule("nightly")).toStrictEqual(changed);
      expect((await h.store.getSchedule("hourly"))?.input).toBeNull();
      await h.store.transact((tx) => tx.deleteSchedule("hourly"));
      expect(await h.store.getSchedule("hourly")).toBeNull();
    });

    it("stores a fire once per due moment and answers the latest", async () => {
      await h.store.transact((tx) => tx.putSchedule(schedule({ name: "s1" })));
      expect(await h.store.lastScheduleFire("s1")).toBeNull();
      const fire = { schedule: "s1", scheduled_at: 60_000, run_id: "r1", fired_at: 60_010 };
      expect(await h.store.transact((tx) => tx.insertScheduleFire(fire))).toBe(true);
      // A second fire of the same moment (another server, a re-fire after a crash) conflicts.
      const again = { ...fire, run_id: "r2", fired_at: 61_000 };
      expect(await h.store.transact((tx) => tx.insertScheduleFire(again))).toBe(false);
      expect(await h.store.lastScheduleFire("s1")).toStrictEqual(fire);
      const next = { schedule: "s1", scheduled_at: 120_000, run_id: "r3", fired_at: 120_001 };
      await h.store.transact((tx) => tx.insertScheduleFire(next));
      expect(await h.store.lastScheduleFire("s1")).toStrictEqual(next);
      // Deleting the schedule deletes its fires: a schedule made again under the name starts over.
      await h.store.transact((tx) => tx.deleteSchedule("s1"));
      expect(await h.store.lastScheduleFire("s1")).toBeNull();
    });
  });
}
