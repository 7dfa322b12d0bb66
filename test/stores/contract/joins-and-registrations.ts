// Join arrivals and workflow registrations.
import { describe, expect, it } from "vitest";
import type { ArrivalRecord } from "../../../src/engine/index.ts";
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

  it("reads, inside a unit, the arrivals stored before it and by it, not a rolled-back one's", async () => {
    const run = await addRun(h.store);
    const arrival = (index: number): ArrivalRecord => ({
      run_id: run.id,
      join: "merge",
      fanout: 3,
      index,
      count: 2,
      task_id: 1,
      key: null,
      value: index,
      join_task: null,
    });
    expect(await h.store.transact((tx) => tx.listArrivals(run.id))).toEqual([]);
    await expect(
      h.store.transact(async (tx) => {
        await tx.insertArrival(arrival(0));
        expect(await tx.listArrivals(run.id)).toStrictEqual([arrival(0)]);
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(await h.store.transact((tx) => tx.listArrivals(run.id))).toEqual([]);
    const seen = await h.store.transact(async (tx) => {
      await tx.insertArrival(arrival(1));
      return tx.listArrivals(run.id);
    });
    expect(seen).toStrictEqual([arrival(1)]);
    expect(await h.store.transact((tx) => tx.listArrivals(run.id))).toStrictEqual([arrival(1)]);
  });

  describe("arrival tally", () => {
    it("counts arrivals of one (run, join, fanout), sees an index and the join task", async () => {
      const run = await addRun(h.store);
      const other = await addRun(h.store);
      const tally = (index: number, runId = run.id, join = "merge", fanout = 10) =>
        h.store.tallyArrivals(runId, join, fanout, index);
      expect(await tally(0)).toStrictEqual({ arrived: 0, indexArrived: false, joined: false });
      const add = (over: Partial<ArrivalRecord>) =>
        h.store.transact((tx) =>
          tx.insertArrival({
            run_id: run.id,
            join: "merge",
            fanout: 10,
            index: 0,
            count: 3,
            task_id: 1,
            key: { k: 1 },
            value: [1],
            join_task: null,
            ...over,
          }),
        );
      await add({ index: 2 });
      await add({ index: 0 });
      await add({ index: 2, task_id: 5 });
      await add({ fanout: 11, index: 1 });
      await add({ join: "other", index: 1 });
      await add({ run_id: other.id, index: 1 });
      expect(await tally(1)).toStrictEqual({ arrived: 3, indexArrived: false, joined: false });
      expect(await tally(2)).toStrictEqual({ arrived: 3, indexArrived: true, joined: false });
      expect(await tally(1, run.id, "merge", 11)).toMatchObject({ arrived: 1, indexArrived: true });
      expect(await tally(1, other.id)).toMatchObject({ arrived: 1, indexArrived: true });
      await h.store.transact((tx) => tx.setJoinTask(run.id, "merge", 10, 42));
      expect(await tally(1)).toStrictEqual({ arrived: 3, indexArrived: false, joined: true });
      expect(await tally(1, run.id, "merge", 11)).toMatchObject({ joined: false });
      const inside = await h.store.transact(async (tx) => {
        await tx.insertArrival({
          run_id: run.id,
          join: "late",
          fanout: 1,
          index: 4,
          count: 5,
          task_id: 9,
          key: null,
          value: null,
          join_task: null,
        });
        return tx.tallyArrivals(run.id, "late", 1, 4);
      });
      expect(inside).toStrictEqual({ arrived: 1, indexArrived: true, joined: false });
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
