// Runs and the dispatch list: round-trips, filters, and dense positions on insert/move/delete.
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../../src/engine/index.ts";
import { addRun, dispatchList, type Harness, runInput } from "./fixtures.ts";

export function runsContract(h: Harness): void {
  describe("runs", () => {
    it("round-trips every field and appends at position n+1", async () => {
      const input = runInput({ title: "Ünïcode ✓", description: "multi\nline", started: true });
      const first = await h.store.transact((tx) => tx.insertRun(input));
      expect(first).toStrictEqual({ ...input, position: 1 });
      expect(await h.store.getRun(input.id)).toStrictEqual({ ...input, position: 1 });
      const second = await addRun(h.store, { status: "running" });
      expect(second.position).toBe(2);
      expect(second.started).toBe(false);
      expect(await h.store.getRun("no-such-run")).toBeNull();
    });

    it("insertRuns appends many runs at consecutive positions, each as a read answers it", async () => {
      const before = await addRun(h.store);
      // 205: two full chunks of the SQLite store's multi-row INSERT and five single rows.
      const inputs = Array.from({ length: 205 }, (_, i) =>
        runInput({ input: i % 3 === 0 ? null : { i, tags: ["ü", i] }, status: "queued" }),
      );
      const runs = await h.store.transact((tx) => tx.insertRuns(inputs));
      expect(runs).toStrictEqual(inputs.map((input, i) => ({ ...input, position: i + 2 })));
      expect((await h.store.listRuns()).slice(1)).toStrictEqual(runs);
      expect(await h.store.getRun(inputs[204]!.id)).toStrictEqual(runs[204]);
      const after = await addRun(h.store);
      expect(after.position).toBe(207);
      expect(await h.store.transact((tx) => tx.insertRuns([]))).toStrictEqual([]);
      expect(before.position).toBe(1);
      // A taken id anywhere in the batch refuses the transaction: none of the batch stays.
      const clash = [runInput(), runInput({ id: inputs[7]!.id }), runInput()];
      await expect(h.store.transact((tx) => tx.insertRuns(clash))).rejects.toThrow();
      expect(await h.store.getRun(clash[0]!.id)).toBeNull();
      expect((await h.store.listRuns()).length).toBe(207);
    });

    it("round-trips a run's input, any JSON value, and null for none", async () => {
      const values = [
        { zeta: 1, alpha: ["ü", null, { b: true }], nested: { n: 1.5 } },
        "just text",
        0,
        false,
        [1, "two"],
        null,
      ];
      const runs: RunRecord[] = [];
      for (const input of values) {
        const run = await h.store.transact((tx) => tx.insertRun(runInput({ input })));
        expect(run.input).toStrictEqual(input);
        expect(await h.store.getRun(run.id)).toStrictEqual(run);
        runs.push(run);
      }
      // Key order is kept as written.
      expect(Object.keys(runs[0]!.input as object)).toEqual(["zeta", "alpha", "nested"]);
      expect(await h.store.listRuns()).toStrictEqual(runs);
      const patched = await h.store.transact((tx) => tx.updateRun(runs[0]!.id, { title: "x" }));
      expect(patched.input).toStrictEqual(values[0]);
    });

    it("touchRuns sets updated of the runs named, inside the transaction and after", async () => {
      const a = await addRun(h.store, { status: "running" });
      const b = await addRun(h.store);
      const c = await addRun(h.store);
      const seen = await h.store.transact(async (tx) => {
        await tx.touchRuns([a.id, c.id, "no-such-run"], 9_000_000_000_000);
        return (await tx.getRun(a.id))!.updated;
      });
      expect(seen).toBe(9_000_000_000_000);
      expect(await h.store.getRun(a.id)).toStrictEqual({ ...a, updated: 9_000_000_000_000 });
      expect((await h.store.getRun(b.id))!.updated).toBe(b.updated);
      expect((await h.store.getRun(c.id))!.updated).toBe(9_000_000_000_000);
      await h.store.transact((tx) => tx.touchRuns([], 1));
    });

    it("lists in position order, filtered by status and workflow", async () => {
      const a = await addRun(h.store, { workflow: "triage", status: "queued" });
      const b = await addRun(h.store, { workflow: "deploy", status: "running" });
      const c = await addRun(h.store, { workflow: "triage", status: "running" });
      const ids = async (filter?: object) => (await h.store.listRuns(filter)).map((r) => r.id);
      expect(await ids()).toEqual([a.id, b.id, c.id]);
      expect(await ids({ status: "running" })).toEqual([b.id, c.id]);
      expect(await ids({ workflow: "triage" })).toEqual([a.id, c.id]);
      expect(await ids({ workflow: "triage", status: "running" })).toEqual([c.id]);
      expect(await ids({ status: "paused" })).toEqual([]);
    });

    it("pages in position order with after and limit, and searches titles", async () => {
      const titles = ["Deploy API", "deploy web", "Triage 100%", "triage_x", "DEPLOY db"];
      const runs: Array<{ id: string; position: number }> = [];
      for (const title of titles) runs.push(await addRun(h.store, { title }));
      const ids = async (filter: object) => (await h.store.listRuns(filter)).map((r) => r.id);
      const all = runs.map((r) => r.id);
      expect(await ids({ limit: 2 })).toEqual(all.slice(0, 2));
      expect(await ids({ after: runs[1]!.position, limit: 2 })).toEqual(all.slice(2, 4));
      expect(await ids({ after: runs[3]!.position, limit: 2 })).toEqual(all.slice(4));
      expect(await ids({ after: runs[4]!.position })).toEqual([]);
      // Case-insensitive substring; % and _ match only themselves.
      expect(await ids({ title: "deploy" })).toEqual([all[0], all[1], all[4]]);
      expect(await ids({ title: "DEPLOY", after: runs[0]!.position, limit: 1 })).toEqual([all[1]]);
      expect(await ids({ title: "0%" })).toEqual([all[2]]);
      expect(await ids({ title: "%" })).toEqual([all[2]]);
      expect(await ids({ title: "e_x" })).toEqual([all[3]]);
      expect(await ids({ title: "_" })).toEqual([all[3]]);
      expect(await ids({ title: "nothing" })).toEqual([]);
    });

    it("counts runs per status and workflow", async () => {
      expect(await h.store.countRunsByStatus()).toEqual([]);
      await addRun(h.store, { workflow: "triage", status: "queued" });
      await addRun(h.store, { workflow: "triage", status: "queued" });
      await addRun(h.store, { workflow: "triage", status: "completed" });
      await addRun(h.store, { workflow: "deploy", status: "failed" });
      const counts = await h.store.countRunsByStatus();
      const key = (c: { status: string; workflow: string }) => `${c.workflow}/${c.status}`;
      expect([...counts].sort((a, b) => key(a).localeCompare(key(b)))).toEqual([
        { status: "failed", workflow: "deploy", count: 1 },
        { status: "completed", workflow: "triage", count: 1 },
        { status: "queued", workflow: "triage", count: 2 },
      ]);
    });

    it("updates fields without touching the position", async () => {
      await addRun(h.store);
      const run = await addRun(h.store);
      const patch = { status: "paused" as const, title: "Renamed", updated: 99, started: true };
      const updated = await h.store.transact((tx) => tx.updateRun(run.id, patch));
      expect(updated).toStrictEqual({ ...run, ...patch });
      expect(await h.store.getRun(run.id)).toStrictEqual(updated);
      const unchanged = await h.store.transact((tx) => tx.updateRun(run.id, {}));
      expect(unchanged).toStrictEqual(updated);
      await expect(
        h.store.transact((tx) => tx.updateRun("missing", { title: "x" })),
      ).rejects.toThrow();
    });

    it("moves a run to an index and renumbers 1..n", async () => {
      const [a, b, c, d, e] = await Promise.all([1, 2, 3, 4, 5].map(() => addRun(h.store))).then(
        (runs) => runs.sort((x, y) => x.position - y.position).map((r) => r.id),
      );
      const move = (id: string, index: number) => h.store.transact((tx) => tx.moveRun(id, index));
      expect((await move(d, 0)).position).toBe(1);
      expect(await dispatchList(h.store)).toEqual([
        [d, 1],
        [a, 2],
        [b, 3],
        [c, 4],
        [e, 5],
      ]);
      expect((await move(d, 3)).position).toBe(4);
      expect(await dispatchList(h.store)).toEqual([
        [a, 1],
        [b, 2],
        [c, 3],
        [d, 4],
        [e, 5],
      ]);
      expect((await move(a, 2)).position).toBe(3);
      expect(await dispatchList(h.store)).toEqual([
        [b, 1],
        [c, 2],
        [a, 3],
        [d, 4],
        [e, 5],
      ]);
      expect((await move(c, 2)).position).toBe(3);
      expect(await dispatchList(h.store)).toEqual([
        [b, 1],
        [a, 2],
        [c, 3],
        [d, 4],
        [e, 5],
      ]);
    });

    it("clamps the move index into the list", async () => {
      const a = await addRun(h.store);
      const b = await addRun(h.store);
      const c = await addRun(h.store);
      const move = (id: string, index: number) => h.store.transact((tx) => tx.moveRun(id, index));
      expect((await move(a.id, 99)).position).toBe(3);
      expect(await dispatchList(h.store)).toEqual([
        [b.id, 1],
        [c.id, 2],
        [a.id, 3],
      ]);
      expect((await move(a.id, -5)).position).toBe(1);
      expect(await dispatchList(h.store)).toEqual([
        [a.id, 1],
        [b.id, 2],
        [c.id, 3],
      ]);
      expect((await move(b.id, 1)).position).toBe(2);
      expect(await dispatchList(h.store)).toEqual([
        [a.id, 1],
        [b.id, 2],
        [c.id, 3],
      ]);
      const moved = await move(c.id, 0);
      expect(moved).toStrictEqual({ ...c, position: 1 });
    });

    it("closes the gap when a run is deleted and appends after the last", async () => {
      const a = await addRun(h.store);
      const b = await addRun(h.store);
      const c = await addRun(h.store);
      await h.store.transact((tx) => tx.deleteRun(b.id));
      expect(await h.store.getRun(b.id)).toBeNull();
      expect(await dispatchList(h.store)).toEqual([
        [a.id, 1],
        [c.id, 2],
      ]);
      const d = await addRun(h.store);
      expect(d.position).toBe(3);
      await h.store.transact((tx) => tx.deleteRun(a.id));
      expect(await dispatchList(h.store)).toEqual([
        [c.id, 1],
        [d.id, 2],
      ]);
      await h.store.transact((tx) => tx.deleteRun(d.id));
      expect(await dispatchList(h.store)).toEqual([[c.id, 1]]);
    });
  });
}
