// The fast ISO-8601 formatter must write exactly what Date.prototype.toISOString writes.
import { describe, expect, it } from "vitest";
import { isoTime } from "../../src/service/views/iso-time.ts";

describe("isoTime", () => {
  it("matches toISOString at the edges of days, years and its own range", () => {
    const edges = [
      0, 1, 999, 1000, 59_999, 86_399_999, 86_400_000, 951_782_400_000, 1_700_000_000_000,
      1_700_000_000_007, 1_700_000_000_070, 4_102_444_799_999, 253_402_300_799_999,
      253_402_300_800_000, -1, -86_400_001, 1.5, 8.64e15,
    ];
    for (const ms of edges) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it("matches toISOString on a spread of instants, in and out of order", () => {
    // A fixed linear congruential sequence: reproducible without a random seed.
    let x = 12_345;
    for (let i = 0; i < 20_000; i++) {
      x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
      const ms = (x * 2_000_003) % 4_200_000_000_000;
      expect(isoTime(ms)).toBe(new Date(ms).toISOString());
    }
  });

  it("throws like toISOString for an invalid time", () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
  });
});
