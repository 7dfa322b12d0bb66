// Finding runs (GET /api/runs `q`, `created_after/before`, `sort`, `ended`): search by title or
// id prefix, a creation range, several statuses, and newest-first time sorts paged by a keyset
// that stays exact when many runs share one instant.
import { describe, expect, it } from "vitest";
import type { RunFilter, RunRecord } from "../../../src/engine/index.ts";
import { addRun, type Harness } from "./fixtures.ts";

export function findContract(h: Harness): void {
  describe("finding runs", () => {
    const ids = async (filter: RunFilter) => (await h.store.listRuns(filter)).map((r) => r.id);

    it("searches the title or the id's prefix (an exact id included)", async () => {
      const a = await addRun(h.store, { id: "ab12cd", title: "Deploy API" });
      const b = await addRun(h.store, { id: "ab99zz", title: "triage 50%" });
      const c = await addRun(h.store, { id: "xyz", title: "about ab12" });
      expect(await ids({ search: "ab12" })).toEqual([a.id, c.id]);
      expect(await ids({ search: "ab" })).toEqual([a.id, b.id, c.id]);
      expect(await ids({ search: "ab99zz" })).toEqual([b.id]);
      expect(await ids({ search: "deploy" })).toEqual([a.id]);
      // The id's prefix is case-sensitive; % matches only itself.
      expect(await ids({ search: "AB99" })).toEqual([]);
      expect(await ids({ search: "50%" })).toEqual([b.id]);
      expect(await ids({ search: "%" })).toEqual([b.id]);
      expect(await ids({ search: "nothing" })).toEqual([]);
    });

    it("filters by a creation range (from inclusive, before exclusive) and several statuses", async () => {
      const runs: RunRecord[] = [];
      const statuses = ["completed", "running", "failed", "queued", "cancelled"] as const;
      for (const [i, status] of statuses.entries()) {
        runs.push(await addRun(h.store, { status, created: 1000 + i * 10, updated: 5000 - i }));
      }
      const all = runs.map((r) => r.id);
      expect(await ids({ createdFrom: 1010 })).toEqual(all.slice(1));
      expect(await ids({ createdBefore: 1030 })).toEqual(all.slice(0, 3));
      expect(await ids({ createdFrom: 1010, createdBefore: 1030 })).toEqual(all.slice(1, 3));
      const ended = ["completed", "failed", "cancelled"] as const;
      expect(await ids({ statuses: ended })).toEqual([all[0], all[2], all[4]]);
      expect(await ids({ statuses: ended, status: "failed" })).toEqual([all[2]]);
      expect(await ids({ statuses: ended, createdFrom: 1020 })).toEqual([all[2], all[4]]);
      expect(await ids({ statuses: [] })).toEqual([]);
      // Newest first by either time, then by id descending.
      expect(await ids({ sort: "created" })).toEqual([...all].reverse());
      expect(await ids({ sort: "updated" })).toEqual(all);
      expect(await ids({ sort: "position" })).toEqual(all);
    });

    it("pages a time sort by (time, id) when many runs share one instant", async () => {
      const runs: RunRecord[] = [];
      // 12 runs over 3 instants, 4 each, inserted in an order unlike the sort's.
      for (let i = 0; i < 12; i++) {
        const at = 2000 + (i % 3);
        const id = `tie-${String(11 - i).padStart(2, "0")}`;
        runs.push(await addRun(h.store, { id, created: at, updated: 9000 - (i % 3) }));
      }
      for (const sort of ["created", "updated"] as const) {
        const expected = await ids({ sort });
        expect(expected).toHaveLength(12);
        const seen: string[] = [];
        let afterKey: RunFilter["afterKey"];
        for (let page = 0; page < 10; page++) {
          const list = await h.store.listRuns({ sort, limit: 5, afterKey });
          seen.push(...list.map((r) => r.id));
          if (list.length < 5) break;
          const last = list[list.length - 1]!;
          afterKey = { at: last[sort], id: last.id };
        }
        expect(seen).toEqual(expected);
        // The order itself: time descending, then id descending.
        const keyed = expected.map((id) => runs.find((r) => r.id === id)!);
        for (let i = 1; i < keyed.length; i++) {
          const [p, q] = [keyed[i - 1]!, keyed[i]!];
          expect(p[sort] > q[sort] || (p[sort] === q[sort] && p.id > q.id)).toBe(true);
        }
      }
    });
  });
}
