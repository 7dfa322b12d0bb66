// Join arrivals and workflow registrations.
import { describe, expect, it } from "vitest";
import type { ArrivalRecord } from "../../src/engine/domain.ts";
import { addRun, type Harness } from "./fixtures.ts";

export function joinsContract(h: Harness): void {
  describe("arrivals", () => {
    it("lists by fan-out then index, filters, and records the join task", async () => {
      const run = await addRun(h.store);
      const other = await addRun(h.store);
      const arrival = (over: Partial<ArrivalRecord>): ArrivalRecord => ({
        run_id: run.id,
        join: "merge",
        fanout: 10,
        index: 0,
        count: 2,
        task_id: 1,
        key: null,
        value: null,
        join_task: null,
        ...over,
      });
      const a = arrival({ index: 1, task_id: 12, key: { file: "b" }, value: [1, { v: true }] });
      const b = arrival({ index: 0, task_id: 11, key: "a", value: null });
      const c = arrival({ fanout: 5, index: 0, count: 1, task_id: 7, value: "only" });
      const d = arrival({ join: "other", fanout: 20, index: 0, task_id: 13 });
      const e = arrival({ run_id: other.id, task_id: 14 });
      await h.store.transact(async (tx) => {
        for (const item of [a, b, c, d, e]) await tx.insertArrival(item);
      });
      expect(await h.store.listArrivals(run.id)).toStrictEqual([c, b, a, d]);
      expect(await h.store.listArrivals(run.id, "merge")).toStrictEqual([c, b, a]);
      expect(await h.store.listArrivals(run.id, "merge", 10)).toStrictEqual([b, a]);
      expect(await h.store.listArrivals(run.id, "nope")).toEqual([]);
      await h.store.transact((tx) => tx.setJoinTask(run.id, "merge", 10, 99));
      const joined = await h.store.listArrivals(run.id);
      expect(joined).toStrictEqual([c, { ...b, join_task: 99 }, { ...a, join_task: 99 }, d]);
      expect(await h.store.listArrivals(other.id)).toStrictEqual([e]);
    });
  });

  describe("registrations", () => {
    it("keeps registration order across replace and delete", async () => {
      const put = (workflow: string, target: string | null, pool: string) =>
        h.store.transact((tx) => tx.putRegistration({ workflow, target, pool }));
      const a = await put("alpha", "./a.ts", "default");
      const b = await put("beta", null, "gpu");
      const c = await put("gamma", "./c.ts", "default");
      expect(b.seq).toBeGreaterThan(a.seq);
      expect(c.seq).toBeGreaterThan(b.seq);
      const replaced = await put("alpha", null, "gpu");
      expect(replaced).toStrictEqual({ workflow: "alpha", target: null, pool: "gpu", seq: a.seq });
      expect(await h.store.listRegistrations()).toStrictEqual([replaced, b, c]);
      await h.store.transact((tx) => tx.deleteRegistration("beta"));
      const d = await put("delta", "./d.ts", "default");
      expect(d.seq).toBeGreaterThan(c.seq);
      expect(await h.store.listRegistrations()).toStrictEqual([replaced, c, d]);
      await h.store.transact((tx) => tx.deleteRegistration("missing"));
      expect(await h.store.listRegistrations()).toHaveLength(3);
    });
  });
}
