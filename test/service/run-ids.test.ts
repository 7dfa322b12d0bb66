// Run ids come from a pooled random source (src/engine/run-ids.ts): they must still
// be ULIDs, strictly increasing, with every random character drawn from all 32 symbols.
import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import { newRunId } from "../../src/engine/run-ids.ts";

const CROCKFORD = /^[0-9A-HJKMNP-TV-Z]{26}$/;

describe("run ids", () => {
  it("are ULIDs of now, strictly increasing, over many pool refills", () => {
    const before = Date.now();
    const ids = Array.from({ length: 20_000 }, () => newRunId());
    for (const id of ids) expect(id).toMatch(CROCKFORD);
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(decodeTime(ids[0])).toBeGreaterThanOrEqual(before);
    expect(decodeTime(ids.at(-1)!)).toBeLessThanOrEqual(Date.now());
  });

  it("draw the random part from every one of the 32 symbols", () => {
    // Only an id of a new millisecond gets fresh randomness (later ones in the same millisecond
    // are increments), so each id here is minted for a later millisecond than the one before.
    const counts = new Map<string, number>();
    const start = Date.now() + 1_000;
    for (let i = 0; i < 4_000; i++) {
      for (const c of newRunId(start + i).slice(10)) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    expect(counts.size).toBe(32);
    // 64,000 characters: 2,000 of each symbol expected; a skewed source would be far off.
    for (const n of counts.values()) expect(n).toBeGreaterThan(1_600);
  });
});
