// Operations in bulk (engine.commands.bulkRuns) and retention (`retainMs`, the engine's sweeper
// on a ManualClock): the single operations' rules per run, refusals per run, events as for one.
import { afterEach, describe, expect, it } from "vitest";
import { NonRetryable, workflow } from "../../src/authoring/index.ts";
import { ManualClock } from "../../src/engine/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

const HOUR = 3_600_000;

function quick(name: string) {
  const wf = workflow(name);
  wf.node({ start: true }, async function a({}: any, input: unknown) {
    return input;
  });
  return wf;
}

function blocking(name: string) {
  const hold = gate();
  const wf = workflow(name);
  wf.node({ start: true }, async function a({}: any, input: unknown) {
    await hold.promise;
    return input;
  });
  return { wf, hold };
}

async function completedRuns(n: number, name = "quick"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++)
    ids.push((await h.service.submitRun(name, { title: `r${i}` })).run_id);
  await h.waitFor(
    () => h.named("run.completed").filter((e) => ids.includes(e.run_id!)).length === n,
    `${n} runs completed`,
  );
  return ids;
}

describe("retention", () => {
  it("deletes only ended runs older than retain, in batches, with run.deleted reason retention", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 1));
    h = await startHarness({ clock, retainMs: HOUR });
    h.register(quick("quick"));
    const { wf, hold } = blocking("held");
    h.register(wf);
    const old = await completedRuns(150);
    const active = (await h.service.submitRun("held", { title: "going" })).run_id;
    await h.waitEvent("task.started", (e) => e.run_id === active);
    clock.advance(30 * 60_000);
    expect(await h.engine.retention!.sweeping).toBe(0);
    const young = await completedRuns(3);
    clock.advance(31 * 60_000);
    expect(await h.engine.retention!.sweeping).toBe(150);
    const deleted = h.named("run.deleted");
    expect(deleted.map((e) => e.run_id).sort()).toEqual([...old].sort());
    expect(deleted[0]!.data).toEqual({ title: "r0", workflow: "quick", reason: "retention" });
    expect((await h.store.listRuns()).map((r) => r.id).sort()).toEqual([active, ...young].sort());
    // The active run stays however old it gets; the young ones go once they are old.
    clock.advance(2 * HOUR);
    expect(await h.engine.retention!.sweeping).toBe(3);
    expect((await h.store.listRuns()).map((r) => r.id)).toEqual([active]);
    hold.open();
    await h.waitEvent("run.completed", (e) => e.run_id === active);
  });

  it("keeps every run when no retention is set", async () => {
    const clock = new ManualClock(Date.UTC(2026, 10, 1));
    h = await startHarness({ clock });
    h.register(quick("quick"));
    await completedRuns(2);
    clock.advance(1000 * HOUR);
    expect(h.engine.retention).toBeNull();
    expect(await h.store.listRuns()).toHaveLength(2);
  });
});

describe("bulk operations", () => {
  it("delete by ids deletes ended runs and refuses an active one and a missing one", async () => {
    h = await startHarness();
    h.register(quick("quick"));
    const { wf, hold } = blocking("held");
    h.register(wf);
    const [done1, done2] = await completedRuns(2);
    const active = (await h.service.submitRun("held", { title: "going" })).run_id;
    const result = await h.engine.commands.bulkRuns("delete", {
      runIds: [done1!, active, "nope", done2!],
      limit: 1000,
    });
    expect(result.done).toEqual([done1, done2]);
    expect(result.refused).toEqual([
      { run_id: active, code: "conflict", message: expect.stringContaining("ended runs only") },
      { run_id: "nope", code: "not_found", message: 'Run "nope" does not exist.' },
    ]);
    expect(h.named("run.deleted").map((e) => [e.run_id, e.data])).toEqual([
      [done1, { title: "r0", workflow: "quick" }],
      [done2, { title: "r1", workflow: "quick" }],
    ]);
    expect((await h.store.listRuns()).map((r) => [r.id, r.position])).toEqual([[active, 1]]);
    hold.open();
  });

  it("a filter takes the first `limit` runs oldest first and answers more and next", async () => {
    h = await startHarness();
    h.register(quick("quick"));
    const ids = await completedRuns(5);
    const seen: string[] = [];
    let after: { created: number; id: string } | undefined;
    for (let page = 0; ; page++) {
      const r = await h.engine.commands.bulkRuns("delete", {
        filter: { workflow: "quick", after },
        limit: 2,
      });
      seen.push(...r.done);
      expect(r.refused).toEqual([]);
      if (!r.more) break;
      after = r.next!;
      expect(page).toBeLessThan(3);
    }
    expect(seen).toEqual(ids);
    expect(await h.store.listRuns()).toEqual([]);
  });

  it("cancel by filter cancels open runs only, with run.cancelled per run", async () => {
    h = await startHarness();
    h.register(quick("quick"));
    const { wf, hold } = blocking("held");
    h.register(wf);
    await completedRuns(1);
    const a = (await h.service.submitRun("held", { title: "a" })).run_id;
    const b = (await h.service.submitRun("held", { title: "b" })).run_id;
    const r = await h.engine.commands.bulkRuns("cancel", { filter: {}, limit: 1000 });
    expect(r).toMatchObject({ done: [a, b], refused: [], more: false });
    expect(h.named("run.cancelled").map((e) => e.run_id)).toEqual([a, b]);
    const again = await h.engine.commands.bulkRuns("cancel", { runIds: [a], limit: 1000 });
    expect(again.refused).toEqual([
      { run_id: a, code: "conflict", message: `Run ${a} has already ended (cancelled).` },
    ]);
    hold.open();
  });

  it("retry failed re-opens failed runs, which then complete; a run without one is refused", async () => {
    h = await startHarness();
    let broken = true;
    const wf = workflow("flaky");
    wf.node({ start: true }, async function a({}: any, input: unknown) {
      if (broken) throw new NonRetryable("down");
      return input;
    });
    h.register(wf);
    h.register(quick("quick"));
    const [ok] = await completedRuns(1);
    const failed = (await h.service.submitRun("flaky", { title: "f" })).run_id;
    await h.waitEvent("run.failed", (e) => e.run_id === failed);
    broken = false;
    const r = await h.engine.commands.bulkRuns("retry_failed", { filter: {}, limit: 1000 });
    expect(r).toMatchObject({ done: [failed], refused: [] });
    await h.waitEvent("run.completed", (e) => e.run_id === failed);
    const none = await h.engine.commands.bulkRuns("retry_failed", { runIds: [ok!], limit: 1000 });
    expect(none.refused).toEqual([
      { run_id: ok, code: "conflict", message: `Run ${ok} has no dead-lettered attempt to retry.` },
    ]);
  });
});
