import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../src/engine/index.ts";
import type { RunSlot } from "../../src/stores/sqlite/ready-index.ts";
import { RunLine } from "../../src/stores/sqlite/run-line.ts";

const slotAt = (position: number): RunSlot => ({
  run: { id: `r${position}`, position } as RunRecord,
  ready: [],
  version: 0,
  inLine: true,
});

describe("RunLine", () => {
  it("answers live runs in position order across the sweeps of stale entries", () => {
    const line = new RunLine();
    // A pseudo-random order of 10,000 positions, pushed in two passes around many sweeps.
    const positions = Array.from({ length: 10_000 }, (_, i) => ((i * 7_919) % 10_000) + 1);
    const slots = positions.map(slotAt);
    for (const slot of slots.slice(0, 6_000)) line.push(slot);
    // A third leave the line before the rest arrive: their entries go stale.
    for (const slot of slots.slice(0, 6_000)) {
      if (slot.run.position % 3 === 0) {
        slot.inLine = false;
        slot.version += 1;
      }
    }
    for (const slot of slots.slice(6_000)) line.push(slot);
    const expected = slots
      .filter((s) => s.inLine)
      .map((s) => s.run.position)
      .sort((a, b) => a - b);
    const taken: number[] = [];
    for (let head = line.peek(); head; head = line.peek()) {
      taken.push(head.run.position);
      head.inLine = false;
      head.version += 1;
    }
    expect(taken).toEqual(expected);
  });
});
