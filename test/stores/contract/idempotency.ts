// The `Idempotency-Key`s of submits: stored with their run, kept while live, replaced once
// expired, expired a batch at a time, and deleted with their run.
import { describe, expect, it } from "vitest";
import type { IdempotencyRecord } from "../../../src/engine/index.ts";
import { addRun, type Harness } from "./fixtures.ts";

export function idempotencyContract(h: Harness): void {
  describe("idempotency keys", () => {
    const keyOf = (runId: string, over: Partial<IdempotencyRecord> = {}): IdempotencyRecord => ({
      key: "order-42",
      workflow: "wf",
      body_hash: "a".repeat(64),
      run_id: runId,
      created: 1_000,
      ...over,
    });

    it("stores a key once, answers it, and keeps a live one against a second put", async () => {
      const run = await addRun(h.store);
      const other = await addRun(h.store);
      expect(await h.store.getIdempotencyKey("order-42")).toBeNull();
      const record = keyOf(run.id);
      expect(await h.store.transact((tx) => tx.putIdempotencyKey(record, 0))).toBe(true);
      expect(await h.store.getIdempotencyKey("order-42")).toStrictEqual(record);
      // Live (created 1000 >= 500): the second put stores nothing and rolls nothing back.
      const second = keyOf(other.id, { created: 1_500, body_hash: "b".repeat(64) });
      expect(await h.store.transact((tx) => tx.putIdempotencyKey(second, 500))).toBe(false);
      expect(await h.store.getIdempotencyKey("order-42")).toStrictEqual(record);
      // Read inside the transaction that stored it.
      const seen = await h.store.transact(async (tx) => {
        await tx.putIdempotencyKey(keyOf(run.id, { key: "k2", created: 2_000 }), 0);
        return tx.getIdempotencyKey("k2");
      });
      expect(seen).toStrictEqual(keyOf(run.id, { key: "k2", created: 2_000 }));
    });

    it("replaces an expired key", async () => {
      const run = await addRun(h.store);
      const other = await addRun(h.store);
      await h.store.transact((tx) => tx.putIdempotencyKey(keyOf(run.id), 0));
      const fresh = keyOf(other.id, { created: 90_000, workflow: "wf2" });
      expect(await h.store.transact((tx) => tx.putIdempotencyKey(fresh, 1_001))).toBe(true);
      expect(await h.store.getIdempotencyKey("order-42")).toStrictEqual(fresh);
    });

    it("expires keys older than a time, oldest first, at most a batch", async () => {
      const run = await addRun(h.store);
      await h.store.transact(async (tx) => {
        for (const [key, created] of [
          ["c", 300],
          ["a", 100],
          ["b", 200],
          ["d", 400],
        ] as const) {
          await tx.putIdempotencyKey(keyOf(run.id, { key, created }), 0);
        }
      });
      expect(await h.store.transact((tx) => tx.expireIdempotencyKeys(350, 2))).toBe(2);
      expect(await h.store.getIdempotencyKey("a")).toBeNull();
      expect(await h.store.getIdempotencyKey("b")).toBeNull();
      expect(await h.store.getIdempotencyKey("c")).not.toBeNull();
      expect(await h.store.transact((tx) => tx.expireIdempotencyKeys(350, 10))).toBe(1);
      expect(await h.store.getIdempotencyKey("c")).toBeNull();
      expect(await h.store.getIdempotencyKey("d")).not.toBeNull();
    });

    it("rolls back with its transaction, and goes with its run", async () => {
      const run = await addRun(h.store);
      const kept = await addRun(h.store);
      await expect(
        h.store.transact(async (tx) => {
          await tx.putIdempotencyKey(keyOf(run.id), 0);
          throw new Error("boom");
        }),
      ).rejects.toThrow("boom");
      expect(await h.store.getIdempotencyKey("order-42")).toBeNull();
      await h.store.transact(async (tx) => {
        await tx.putIdempotencyKey(keyOf(run.id), 0);
        await tx.putIdempotencyKey(keyOf(run.id, { key: "again" }), 0);
        await tx.putIdempotencyKey(keyOf(kept.id, { key: "kept" }), 0);
      });
      await h.store.transact((tx) => tx.deleteRun(run.id));
      expect(await h.store.getIdempotencyKey("order-42")).toBeNull();
      expect(await h.store.getIdempotencyKey("again")).toBeNull();
      expect(await h.store.getIdempotencyKey("kept")).toStrictEqual(
        keyOf(kept.id, { key: "kept" }),
      );
    });

    it("lets one of two transactions racing with a key store it", async () => {
      const a = await addRun(h.store);
      const b = await addRun(h.store);
      const stored = await Promise.all([
        h.store.transact((tx) => tx.putIdempotencyKey(keyOf(a.id), 0)),
        h.store.transact((tx) => tx.putIdempotencyKey(keyOf(b.id), 0)),
      ]);
      expect(stored).toStrictEqual([true, false]);
      expect((await h.store.getIdempotencyKey("order-42"))?.run_id).toBe(a.id);
    });
  });
}
