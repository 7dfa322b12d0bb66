// A body's ctx call racing the operation that stops its attempt. `ctx.log` and `ctx.ask` check
// that the attempt is not stopped, then queue their write; a cancel or delete committed in
// between must still win: the call writes nothing and rejects with the stop's reason, so the
// run's `run.cancelled` stays its last word and the inbox shows no request nobody can take.
//
// Deterministic: the test opens the body's gate and issues the operation in the same turn, so
// the operation's unit is queued first and the body's call joins the same batch behind it.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness;
afterEach(async () => {
  await h?.close();
});

type Call = "log" | "ask" | "publish";

/** A body that waits for the test, then makes one ctx call and records how it ended. */
function lateCaller(call: Call, outcome: { value?: unknown }) {
  const go = gate();
  const wf = workflow("late");
  wf.node({ start: true }, async function nap({}: any, _input: unknown, ctx: any) {
    await go.promise;
    try {
      if (call === "log") await ctx.log("too late");
      else if (call === "ask") await ctx.ask({ prompt: "still there?" });
      else ctx.publish("tick", { n: 1 });
      outcome.value = "went through";
    } catch (err) {
      outcome.value = (err as { reason?: string }).reason ?? String(err);
    }
    await new Promise((r) => ctx.signal.addEventListener("abort", r));
  });
  return { wf, go };
}

async function raceStop(call: Call, stop: "cancel" | "delete") {
  h = await startHarness();
  const outcome: { value?: unknown } = {};
  const { wf, go } = lateCaller(call, outcome);
  h.register(wf);
  const { run_id } = await h.service.submitRun("late", { title: "t" });
  await h.waitEvent("task.started", (e) => e.run_id === run_id);
  go.open();
  await (stop === "cancel" ? h.service.cancelRun(run_id) : h.service.deleteRun(run_id));
  await h.waitFor(() => outcome.value !== undefined, "the body's call settled");
  return { run_id, outcome: outcome.value };
}

describe("a ctx call racing its attempt's stop", () => {
  it("ctx.log behind a cancel writes nothing and rejects with the cancel", async () => {
    const { run_id, outcome } = await raceStop("log", "cancel");
    expect(outcome).toBe("cancel");
    expect(await h.service.runLog(run_id)).toEqual([]);
    const names = (await h.service.runEvents(run_id, {})).map((e) => e.name);
    expect(names.at(-1)).toBe("run.cancelled");
  });

  it("ctx.log behind a run delete rejects with the delete, not a store error", async () => {
    const { outcome } = await raceStop("log", "delete");
    expect(outcome).toBe("delete");
  });

  it("ctx.ask behind a cancel opens no request", async () => {
    const { run_id, outcome } = await raceStop("ask", "cancel");
    expect(outcome).toBe("cancel");
    expect(await h.service.runRequests(run_id)).toEqual([]);
    expect(await h.service.listRequests({ pending: true })).toEqual([]);
  });

  it("ctx.publish behind a cancel publishes nothing after run.cancelled", async () => {
    const { run_id } = await raceStop("publish", "cancel");
    // publish is fire-and-forget: wait until its unit (if any) has been through the store.
    await h.engine.uow.run(async () => {});
    expect(h.named("plugin.late.tick", run_id)).toEqual([]);
  });
});
