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

  it("leaves nothing behind when the store fails on a later item", async () => {
    h = await startHarness();
    h.register(echo("batch"));
    // A store that fails the third task insert of a unit, as a full disk or a lost connection
    // would, after two runs of the batch were written in the same transaction.
    const store = h.store;
    const transact = store.transact.bind(store);
    let failing = true;
    store.transact = ((fn: (tx: StoreWriter) => Promise<unknown>) =>
      transact((tx) => {
        let inserts = 0;
        const faulty = new Proxy(tx, {
          get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver);
            if (key !== "insertTask" || !failing)
              return typeof value === "function" ? value.bind(target) : value;
            return (...args: unknown[]) => {
              if (++inserts === 3) return Promise.reject(new Error("disk full"));
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
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
    failing = false;
    const ids = await h.engine.commands.submitRuns("batch", [{ title: "a" }, { title: "b" }]);
    expect((await store.listRuns()).map((r) => r.id)).toEqual(ids);
  });

  it("refuses an unregistered workflow before writing", async () => {
    h = await startHarness();
    await expect(h.engine.commands.submitRuns("nope", [{ title: "a" }])).rejects.toMatchObject({
      code: "unknown_workflow",
    });
  });
});
