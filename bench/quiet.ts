// The benchmark machine may be shared (other test runs, builds). Before each repetition the
// driver can wait until the machine is quiet, judged by what /proc/stat says the CPUs did over
// a short window (the driver itself is idle then, so the busy share is everybody else's), and
// it records that share next to the figures either way.
import { readFileSync } from "node:fs";

/** Ticks (USER_HZ, 10 ms) all CPUs have spent busy, and in all, since boot. */
export function cpuTimes(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0); // idle + iowait
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

/** Share (0..1) of all CPUs that was busy during the next `ms` milliseconds. */
export async function busyShare(ms = 2000): Promise<number> {
  const before = cpuTimes();
  await new Promise((r) => setTimeout(r, ms));
  const after = cpuTimes();
  const total = after.total - before.total;
  return total > 0 ? (after.busy - before.busy) / total : 0;
}

/**
 * Waits (at most `maxWaitMs`) until the machine's busy share is at most `threshold`; answers
 * the last share measured. A threshold of 1 or more never waits.
 */
export async function waitForQuiet(threshold: number, maxWaitMs: number): Promise<number> {
  const deadline = Date.now() + maxWaitMs;
  let share = await busyShare(threshold < 1 ? 2000 : 500);
  while (share > threshold && Date.now() < deadline) {
    process.stderr.write(`bench: machine ${Math.round(share * 100)}% busy, waiting...\n`);
    share = await busyShare(5000);
  }
  return share;
}
