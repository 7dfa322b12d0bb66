// The attempt's stop switch: the AbortController behaviour the engine, bodies and agents rely
// on, with the signal made only on demand.
import { describe, expect, it } from "vitest";
import { AttemptStop } from "../../src/engine/attempt-stop.ts";

describe("AttemptStop", () => {
  it("aborts a signal asked for before the stop, with the first reason only", async () => {
    const stop = new AttemptStop();
    const signal = stop.signal;
    const heard: unknown[] = [];
    signal.addEventListener("abort", () => heard.push(signal.reason));
    const until = stop.untilStopped();
    const first = new Error("cancelled");
    stop.abort(first);
    stop.abort(new Error("later"));
    expect(stop.aborted).toBe(true);
    expect(stop.reason).toBe(first);
    expect(heard).toEqual([first]);
    await expect(until).rejects.toBe(first);
  });

  it("answers an already aborted signal and a rejected wait when asked after the stop", async () => {
    const stop = new AttemptStop();
    expect(stop.aborted).toBe(false);
    expect(stop.reason).toBeUndefined();
    const why = new Error("timed out");
    stop.abort(why);
    expect(stop.signal.aborted).toBe(true);
    expect(stop.signal.reason).toBe(why);
    await expect(stop.untilStopped()).rejects.toBe(why);
  });

  it("shares one wait between callers", async () => {
    const stop = new AttemptStop();
    const a = stop.untilStopped();
    expect(stop.untilStopped()).toBe(a);
    stop.abort("x");
    await expect(a).rejects.toBe("x");
  });
});
