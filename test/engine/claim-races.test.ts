// Races around the dispatcher's own claim transaction. A resume wakes the dispatcher, whose
// claim is queued behind the resume's commit; whatever the operator sends in that same turn
// (a submit, a cancel) lands in the same batch as the claim. These tests build exactly that
// interleaving, so they are deterministic: a paused run holds a ready task while the slot is
// free, and the resume and the racing operation are issued back to back.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

interface Tracker {
  running: Set<string>;
  peak: number;
  aborted: Set<string>;
  release: Map<string, () => void>;
}

/** One node that holds its slot until the test releases its title (or its signal aborts). */
function holder(t: Tracker) {
  const wf = workflow("held");
  wf.node({ start: true }, async function hold({}: any, input: { title: string }, ctx: any) {
    t.running.add(input.title);
    t.peak = Math.max(t.peak, t.running.size);
    const g = gate();
    t.release.set(input.title, g.open);
    const stop = () => {
      t.aborted.add(input.title);
      g.open();
    };
    if (ctx.signal.aborted) stop();
    else ctx.signal.addEventListener("abort", stop);
    await g.promise;
    t.running.delete(input.title);
    return input.title;
  });
  return wf;
}

/** A run whose start task is ready while the one slot is free, and nobody has woken a claim. */
async function pausedReadyRun(t: Tracker): Promise<string> {
  const first = await h.service.submitRun("held", { title: "blocker" });
  await h.waitFor(() => t.running.has("blocker"), "blocker running");
  const { run_id } = await h.service.submitRun("held", { title: "parked" });
  await h.service.pauseRun(run_id);
  t.release.get("blocker")!();
  await h.waitEvent("run.completed", (e) => e.run_id === first.run_id);
  return run_id;
}

describe("the dispatcher's claim racing operator calls", () => {
  it("a submit in the same turn as a resume's claim does not run past the pool's capacity", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const t: Tracker = { running: new Set(), peak: 0, aborted: new Set(), release: new Map() };
    h.register(holder(t));
    const parked = await pausedReadyRun(t);
    t.peak = 0;
    // The resume's wake queues the dispatcher's claim; the submit reserves a slot meanwhile.
    await h.service.resumeRun(parked);
    const third = await h.service.submitRun("held", { title: "third" });
    await h.waitFor(() => t.running.has("parked"), "the resumed run claimed");
    const health = await h.service.health();
    expect(health.pools!.default.in_flight).toBeLessThanOrEqual(1);
    expect(t.peak).toBe(1);
    expect((await h.service.getRun(third.run_id)).tasks![0].status).toBe("ready");
    // And the third run gets the slot once it is free.
    t.release.get("parked")!();
    await h.waitFor(() => t.running.has("third"), "third claimed");
    t.release.get("third")!();
    await h.waitFor(() => h.named("run.completed").length === 3, "three runs");
    expect((await h.service.health()).pools!.default.in_flight).toBe(0);
  });

  it("a cancel committed right after the claim stops the attempt the claim started", async () => {
    h = await startHarness({ pools: { default: { capacity: 1 } } });
    const t: Tracker = { running: new Set(), peak: 0, aborted: new Set(), release: new Map() };
    h.register(holder(t));
    const parked = await pausedReadyRun(t);
    await h.service.resumeRun(parked);
    const ok = await h.service.cancelRun(parked);
    // Claimed first (same batch, earlier), the attempt was cancelled in progress...
    expect(ok.note).toBe("Stopped 1 attempt.");
    // ...so its body must be stopped (or never called), and give its slot back.
    await h.waitFor(
      async () => (await h.service.health()).pools!.default.in_flight === 0,
      "the slot back",
    );
    expect(t.running.size).toBe(0);
    expect(h.named("task.done", parked)).toHaveLength(0);
  });
});
