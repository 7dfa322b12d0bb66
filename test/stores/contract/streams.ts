// Stored events and stream chunks: monotonic ids, cursors, filters and paging.
import { describe, expect, it } from "vitest";
import type { NewEvent } from "../../../src/engine/index.ts";
import { addRun, addTask, type Harness } from "./fixtures.ts";

export function streamsContract(h: Harness): void {
  describe("events", () => {
    it("stores events with increasing ids and round-trips them", async () => {
      expect(await h.store.lastEventId()).toBe(0);
      const run = await addRun(h.store);
      const batch: NewEvent[] = [
        {
          name: "run.created",
          run_id: run.id,
          task_id: null,
          data: { title: "t", nested: { a: [1, null] } },
        },
        { name: "task.enqueued", run_id: run.id, task_id: 7, data: { payload_present: false } },
        { name: "engine.started", run_id: null, task_id: null, data: {} },
      ];
      const stored = await h.store.transact((tx) => tx.appendEvents(batch, 4242));
      expect(stored).toHaveLength(3);
      expect(stored).toStrictEqual(
        batch.map((event, i) => ({ ...event, id: stored[i].id, created: 4242 })),
      );
      expect(stored[0].id).toBeGreaterThan(0);
      expect(stored[1].id!).toBeGreaterThan(stored[0].id!);
      expect(stored[2].id!).toBeGreaterThan(stored[1].id!);
      expect(await h.store.lastEventId()).toBe(stored[2].id);
      expect(await h.store.listEvents({})).toStrictEqual(stored);
      expect(await h.store.transact((tx) => tx.appendEvents([], 1))).toEqual([]);
    });

    it("stores a large batch in order, and ids keep growing across transactions", async () => {
      const run = await addRun(h.store);
      const batch = (from: number, n: number): NewEvent[] =>
        Array.from({ length: n }, (_, i) => ({
          name: "join.arrived",
          run_id: i % 3 === 0 ? null : run.id,
          task_id: i % 2 === 0 ? null : i,
          data: { n: from + i, when: i % 5 === 0 ? null : [i, { x: "y" }] },
        }));
      const big = await h.store.transact((tx) => tx.appendEvents(batch(0, 1234), 7));
      const small = await h.store.transact(async (tx) => [
        ...(await tx.appendEvents(batch(1234, 1), 8)),
        ...(await tx.appendEvents(batch(1235, 2), 8)),
      ]);
      const stored = [...big, ...small];
      expect(stored.map((e) => e.data.n)).toEqual(Array.from({ length: 1237 }, (_, i) => i));
      for (let i = 1; i < stored.length; i++)
        expect(stored[i].id!).toBeGreaterThan(stored[i - 1].id!);
      expect(await h.store.listEvents({})).toStrictEqual(stored);
      expect(await h.store.lastEventId()).toBe(stored.at(-1)!.id);
    });

    it("pages with after and limit and filters by run", async () => {
      const a = await addRun(h.store);
      const b = await addRun(h.store);
      const event = (runId: string | null, n: number): NewEvent => ({
        name: "run.updated",
        run_id: runId,
        task_id: null,
        data: { n },
      });
      const stored = await h.store.transact((tx) =>
        tx.appendEvents(
          [event(a.id, 1), event(b.id, 2), event(a.id, 3), event(null, 4), event(a.id, 5)],
          1,
        ),
      );
      const ns = async (query: object) => (await h.store.listEvents(query)).map((e) => e.data.n);
      expect(await ns({})).toEqual([1, 2, 3, 4, 5]);
      expect(await ns({ after: stored[1].id })).toEqual([3, 4, 5]);
      expect(await ns({ limit: 2 })).toEqual([1, 2]);
      expect(await ns({ after: stored[0].id, limit: 2 })).toEqual([2, 3]);
      expect(await ns({ run_id: a.id })).toEqual([1, 3, 5]);
      expect(await ns({ run_id: a.id, after: stored[0].id, limit: 1 })).toEqual([3]);
      expect(await ns({ run_id: "none" })).toEqual([]);
      expect(await ns({ after: stored[4].id })).toEqual([]);
    });
  });

  describe("stream chunks", () => {
    it("numbers chunks per task from the last stored seq", async () => {
      const run = await addRun(h.store);
      const a = await addTask(h.store, run.id);
      const b = await addTask(h.store, run.id);
      expect(await h.store.lastChunkSeq(a.id)).toBe(0);
      const first = await h.store.transact((tx) =>
        tx.appendChunks(
          a.id,
          [
            { kind: "text", text: "Hel" },
            { kind: "thought", text: "hmm" },
          ],
          10,
        ),
      );
      expect(first).toStrictEqual([
        { task_id: a.id, seq: 1, kind: "text", text: "Hel", created: 10 },
        { task_id: a.id, seq: 2, kind: "thought", text: "hmm", created: 10 },
      ]);
      const other = await h.store.transact((tx) =>
        tx.appendChunks(b.id, [{ kind: "notice", text: "b" }], 11),
      );
      expect(other.map((c) => c.seq)).toEqual([1]);
      const more = await h.store.transact((tx) =>
        tx.appendChunks(
          a.id,
          [
            { kind: "tool_call", text: "{}" },
            { kind: "tool_result", text: "" },
            { kind: "text", text: "lo" },
          ],
          12,
        ),
      );
      expect(more.map((c) => c.seq)).toEqual([3, 4, 5]);
      expect(await h.store.lastChunkSeq(a.id)).toBe(5);
      expect(await h.store.lastChunkSeq(b.id)).toBe(1);
      expect(await h.store.transact((tx) => tx.appendChunks(a.id, [], 13))).toEqual([]);
    });

    it("pages chunks after a seq, at most limit", async () => {
      const run = await addRun(h.store);
      const task = await addTask(h.store, run.id);
      const texts = ["a", "b", "c", "d", "e"];
      const all = await h.store.transact((tx) =>
        tx.appendChunks(
          task.id,
          texts.map((text) => ({ kind: "text" as const, text })),
          1,
        ),
      );
      expect(await h.store.listChunks(task.id, 0, 100)).toStrictEqual(all);
      expect(await h.store.listChunks(task.id, 0, 2)).toStrictEqual(all.slice(0, 2));
      expect(await h.store.listChunks(task.id, 2, 2)).toStrictEqual(all.slice(2, 4));
      expect(await h.store.listChunks(task.id, 4, 2)).toStrictEqual(all.slice(4));
      expect(await h.store.listChunks(task.id, 5, 2)).toEqual([]);
      expect(await h.store.listChunks(task.id + 1, 0, 10)).toEqual([]);
    });
  });
}
