// The ratios issues 22 and 26 name, from the rows of a bench/peers/run.ts report, and the
// target lines bench/targets.ts prints from such a report. Figures are made up: nothing here
// runs a peer (bench/peers is installed on demand, never in CI).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { BLANK } from "../../bench/figures.ts";
import { type PeerRow, peerRatios, peersTable, ratioLines } from "../../bench/peers/ratios.ts";
import { peerTargetLines } from "../../bench/targets.ts";

const row = (system: PeerRow["system"], workload: string, steps: number | null): PeerRow => ({
  workload,
  ...BLANK,
  steps_per_s: steps,
  system,
});

const ROWS: PeerRow[] = [
  row("sqlite", "W1", 3000),
  row("postgres", "W1", 600),
  row("dbos", "W1", 100),
  row("graphile", "W1", 150),
  row("pgboss", "W1", 120),
  row("bullmq", "W1", 1500),
  row("sqlite", "W3", 2000),
  row("bullmq", "W3", 2000),
];

describe("peer ratios", () => {
  it("divides Yardmaster's steps/s by BullMQ's and by the best PostgreSQL peer's", () => {
    const [w1, w3, pg] = peerRatios(ROWS);
    expect(w1).toMatchObject({ value: 2, met: true, goal: ">= 1.5x" });
    expect(w3).toMatchObject({ value: 1, met: false });
    expect(pg).toMatchObject({ value: 4, met: false, goal: ">= 5x" });
    expect(pg.from).toContain("graphile-worker");
  });

  it("says not measured when a side is missing or failed", () => {
    const rows = ROWS.filter((r) => r.system !== "bullmq").concat(row("bullmq", "W1", null));
    const [w1, w3] = peerRatios(rows);
    expect(w1).toMatchObject({ value: null, met: null });
    expect(w3.value).toBeNull();
    expect(ratioLines([w1])[0]).toContain("not measured");
    const alone = peerRatios([row("postgres", "W1", 600)])[2];
    expect(alone).toMatchObject({
      value: null,
      from: expect.stringContaining("no PostgreSQL peer"),
    });
  });

  it("prints one table row per system and workload, systems by name", () => {
    const lines = peersTable(ROWS).split("\n");
    expect(lines).toHaveLength(ROWS.length + 2);
    expect(lines[2]).toMatch(/^W1\s+Yardmaster, SQLite\s+3,000/);
    expect(lines.at(-1)).toMatch(/^W3\s+BullMQ \+ Redis\s+2,000/);
  });
});

describe("bench/targets.ts peer lines", () => {
  const dir = mkdtempSync(join(tmpdir(), "ym-peer-ratios-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads the last peers report when there is one, and says how to get one otherwise", () => {
    expect(peerTargetLines(join(dir, "none.json"))[0]).toContain("not measured");
    const file = join(dir, "peers.json");
    writeFileSync(file, JSON.stringify({ date: "2026-11-27T05:00:00Z", rows: ROWS }));
    const lines = peerTargetLines(file);
    expect(lines[0]).toContain("2026-11-27T05:00:00Z");
    expect(lines[1]).toMatch(/W1 steps\/s, Yardmaster SQLite \/ BullMQ: 2x .* met$/);
    expect(lines[3]).toMatch(/Yardmaster PostgreSQL \/ best PostgreSQL peer: 4x .*NOT MET$/);
  });
});
