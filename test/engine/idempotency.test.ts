// Submits under an Idempotency-Key, through the service over a real engine and store: a replay
// answers the first run, a different request under the key is refused, concurrent duplicates
// make one run, a key expires after its window, and a deleted run takes its key with it.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { bodyHash, canonicalJson } from "../../src/service/idempotency.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

function echo(name: string) {
  const wf = workflow(name);
  wf.node({ start: true }, async function a({}: any, input: unknown) {
    return input;
  });
  return wf;
}

describe("canonical body hash", () => {
  it("ignores key order and undefined fields, and tells bodies apart", () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[1,{"y":2,"z":1}]},"b":1}',
    );
    expect(bodyHash({ title: "t", description: "" })).toBe(
      bodyHash({ description: "", title: "t" }),
    );
    expect(bodyHash({ title: "t", description: "" })).not.toBe(
      bodyHash({ title: "t", description: "x" }),
    );
  });
});

describe("submit with an Idempotency-Key", () => {
  it("answers the first run to a replay, without a second run or event", async () => {
    h = await startHarness();
    h.register(echo("idem"));
    const first = await h.service.submitRunOnce("idem", { title: "t", description: "" }, "k-1");
    expect(first.replayed).toBe(false);
    const again = await h.service.submitRunOnce("idem", { description: "", title: "t" }, "k-1");
    expect(again).toStrictEqual({ created: first.created, replayed: true });
    expect(await h.store.listRuns()).toHaveLength(1);
    expect(h.named("run.created")).toHaveLength(1);
    // Another key is another request.
    const other = await h.service.submitRunOnce("idem", { title: "t", description: "" }, "k-2");
    expect(other.created.run_id).not.toBe(first.created.run_id);
    // A plain submit neither reads nor writes keys.
    await h.service.submitRun("idem", { title: "t", description: "" });
    expect(await h.store.listRuns()).toHaveLength(3);
    await h.waitFor(() => h.named("run.completed").length === 3, "three runs completed");
  });

  it("refuses the key with another body or another workflow (conflict), naming the run", async () => {
    h = await startHarness();
    h.register(echo("idem"));
    h.register(echo("other"));
    const first = await h.service.submitRunOnce("idem", { title: "t", description: "" }, "k");
    await expect(
      h.service.submitRunOnce("idem", { title: "t2", description: "" }, "k"),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("different request body"),
      extras: { run_id: first.created.run_id },
    });
    await expect(
      h.service.submitRunOnce("other", { title: "t", description: "" }, "k"),
    ).rejects.toMatchObject({
      code: "conflict",
      message: expect.stringContaining("workflow idem"),
    });
    await expect(
      h.service.submitRunOnce("nope", { title: "t", description: "" }, "k"),
    ).rejects.toMatchObject({ code: "unknown_workflow" });
    expect(await h.store.listRuns()).toHaveLength(1);
  });

  it("makes one run of 20 concurrent identical submits", async () => {
    h = await startHarness();
    h.register(echo("idem"));
    const body = { title: "same", description: "" };
    const all = await Promise.all(
      Array.from({ length: 20 }, () => h.service.submitRunOnce("idem", body, "race")),
    );
    const ids = new Set(all.map((r) => r.created.run_id));
    expect(ids.size).toBe(1);
    expect(all.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await h.store.listRuns()).toHaveLength(1);
  });

  it("rolls back a submit whose key was stored after its look-up, and answers the winner", async () => {
    h = await startHarness();
    h.register(echo("idem"));
    const body = { title: "t", description: "" };
    const first = await h.service.submitRunOnce("idem", body, "late");
    // The next look-up misses the stored key, as one on another server sharing a PostgreSQL
    // schema could before that server committed: the key's uniqueness must decide.
    const store = h.store;
    const transact = store.transact.bind(store);
    let blind = 1;
    store.transact = (fn) =>
      transact((tx) =>
        fn(
          new Proxy(tx, {
            get(target, prop) {
              if (prop === "getIdempotencyKey" && blind > 0) {
                blind -= 1;
                return async () => null;
              }
              const value = Reflect.get(target, prop);
              return typeof value === "function" ? value.bind(target) : value;
            },
          }),
        ),
      );
    const again = await h.service.submitRunOnce("idem", body, "late");
    expect(blind).toBe(0);
    expect(again).toStrictEqual({ created: first.created, replayed: true });
    expect(await h.store.listRuns()).toHaveLength(1);
    // The rolled-back run left no event behind.
    expect(h.named("run.created")).toHaveLength(1);
  });

  it("forgets a key after its window, and with its deleted run", async () => {
    h = await startHarness({ idempotencyWindowMs: 200 });
    h.register(echo("idem"));
    const body = { title: "t", description: "" };
    const first = await h.service.submitRunOnce("idem", body, "k");
    await new Promise((r) => setTimeout(r, 250));
    // Expired: the key is free again, even for another body, and now names the new run.
    const later = await h.service.submitRunOnce("idem", { title: "other", description: "" }, "k");
    expect(later.replayed).toBe(false);
    expect(later.created.run_id).not.toBe(first.created.run_id);
    expect((await h.store.getIdempotencyKey("k"))?.run_id).toBe(later.created.run_id);
    // Each keyed submit deletes a batch of expired keys.
    await h.service.submitRunOnce("idem", body, "old");
    await new Promise((r) => setTimeout(r, 250));
    await h.service.submitRunOnce("idem", body, "new");
    expect(await h.store.getIdempotencyKey("old")).toBeNull();

    const kept = await h.service.submitRunOnce("idem", body, "del");
    await h.waitFor(
      async () => (await h.service.getRun(kept.created.run_id)).status === "completed",
      "run completed",
    );
    await h.service.deleteRun(kept.created.run_id);
    expect(await h.store.getIdempotencyKey("del")).toBeNull();
    const after = await h.service.submitRunOnce("idem", body, "del");
    expect(after.replayed).toBe(false);
    expect(after.created.run_id).not.toBe(kept.created.run_id);
  });
});
