import { describe, expect, it } from "vitest";
import { ManualClock, systemClock } from "../../src/engine/index.ts";

describe("ManualClock", () => {
  it("fires timers in due order only when time reaches them, and cancels", () => {
    const clock = new ManualClock(1_000);
    const fired: string[] = [];
    clock.at(3_000, () => fired.push("c"));
    clock.at(2_000, () => fired.push("b"));
    const cancel = clock.at(2_500, () => fired.push("x"));
    cancel();
    clock.advance(500);
    expect(fired).toEqual([]);
    clock.advance(2_000);
    expect(fired).toEqual(["b", "c"]);
    expect(clock.now()).toBe(3_500);
    expect(clock.pending).toBe(0);
    clock.set(0);
    expect(clock.now()).toBe(3_500);
  });

  it("fires a timer already due on the next microtask", async () => {
    const clock = new ManualClock(5_000);
    let fired = false;
    clock.at(4_000, () => {
      fired = true;
    });
    expect(fired).toBe(false);
    await Promise.resolve();
    expect(fired).toBe(true);
  });
});

describe("systemClock", () => {
  it("fires after the due moment and not before", async () => {
    const start = Date.now();
    const at = await new Promise<number>((done) =>
      systemClock.at(start + 30, () => done(Date.now())),
    );
    expect(at).toBeGreaterThanOrEqual(start + 30);
  });
});
