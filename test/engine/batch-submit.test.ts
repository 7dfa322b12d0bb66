// The batch submit command over a real engine and store: one unit of work for every run, so a
// store failure at any item leaves no run, no task and no event behind; in order otherwise.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import type { StoreWriter } from "../../src/engine/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

function echo(name: string) {
  const wf = workflow(name);
  wf.node({ start: true }, async function a({}: any, payload: unknown) {
    return payload;
  });
  return wf;
}

describe("submitRuns", () => {
  it("creates the runs in order, positions following, each with run.created", async () => {
    h = await startHarness();
    h.register(echo("batch"));
    await h.engine.commands.submitRun("batch", { title: "before" });
    const ids = await h.engine.commands.submitRuns("batch", [
      { title: "a" },
      { title: "b", description: "B", input: { n: 1 } },
      { title: "c" },
    ]);
    const runs = await h.store.listRuns();
    expect(runs.map((r) => r.title)).toEqual(["before", "a", "b", "c"]);
    expect(runs.slice(1).map((r) => r.id)).toEqual(ids);
    expect(runs.map((r) => r.position)).toEqual([1, 2, 3, 4]);
    const h2 = h;
    await h.waitFor(() => h2.named("run.completed").length === 4, "four runs completed");
    const created = h.named("run.created").slice(1);
    expect(created.map((e) => e.run_id)).toEqual(ids);
    const b = await h.service.getRun(ids[1]);
    expect(b.output).toEqual({ title: "b", description: "B", input: { n: 1 } });
  });

  // The batch writes its runs with one store call, then their start tasks with another, then
  // the events: a store that fails the second or third call (a full disk, a lost connection)
  // after the runs were written in the same transaction must leave nothing behind.
  for (const failing of ["insertTasks", "appendEvents"]) {
    it(`leaves nothing behind when the store fails at ${failing}, after the runs were written`, async () => {
      h = await startHarness();
      h.register(echo("batch"));
      const store = h.store;
      const transact = store.transact.bind(store);
      let broken = true;
      store.transact = ((fn: (tx: StoreWriter) => Promise<unknown>) =>
        transact((tx) => {
          const faulty = new Proxy(tx, {
            get(target, key, receiver) {
              const value = Reflect.get(target, key, receiver);
              if (key !== failing || !broken) {
                return typeof value === "function" ? value.bind(target) : value;
              }
              return () => Promise.reject(new Error("disk full"));
            },
          });
          return fn(faulty);
        })) as typeof store.transact;
      const before = h.events.length;
      await expect(
        h.engine.commands.submitRuns("batch", [{ title: "a" }, { title: "b" }, { title: "c" }]),
      ).rejects.toThrow("disk full");
      expect(await store.listRuns()).toEqual([]);
      expect(await store.listTasks({})).toEqual([]);
      expect(h.events.slice(before)).toEqual([]);
      broken = false;
      const ids = await h.engine.commands.submitRuns("batch", [{ title: "a" }, { title: "b" }]);
      expect((await store.listRuns()).map((r) => r.id)).toEqual(ids);
    });
  }

  it("refuses an unregistered workflow before writing", async () => {
    h = await startHarness();
    await expect(h.engine.commands.submitRuns("nope", [{ title: "a" }])).rejects.toMatchObject({
      code: "unknown_workflow",
    });
  });
});
