// Prints what a BENCH_LATENCY record (bench/latency-probe.ts) says:
//   node --import tsx bench/latency-summary.ts <file.json> [slots]
// - attempts: body time, outcome commit (body end to committed), hand-off lateness (each attempt
//   started after the first `slots` (64) paired in order with the body ends that freed a slot:
//   its start minus that end), per wave of `slots` attempts;
// - runs: server time from `run.created` published to `run.completed` published, and the
//   slowest 1 % split into segments, with the GC pauses that fell inside them;
// - commit latency of every unit of work, GC pauses, event-loop delay, memory peaks.
import { readFileSync } from "node:fs";
import type { AttemptTimes, LatencyRecord } from "./latency-probe.ts";

function pct(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const f = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : "-");

function dist(label: string, values: number[]): string {
  return `${label}: n=${values.length} p50 ${f(pct(values, 50))} p90 ${f(pct(values, 90))} p99 ${f(pct(values, 99))} max ${f(Math.max(...values))} ms`;
}

/** Hand-off lateness: the i-th start after the first `slots` against the i-th body end. */
export function handOffLateness(attempts: AttemptTimes[], slots: number): number[] {
  const starts = attempts.map((a) => a.start).sort((a, b) => a - b);
  const ends = attempts
    .map((a) => a.bodyEnd)
    .filter((e): e is number => e !== null)
    .sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = slots; i < starts.length && i - slots < ends.length; i++) {
    out.push(starts[i] - ends[i - slots]);
  }
  return out;
}

function main(): void {
  const [file, slotsArg] = process.argv.slice(2);
  if (!file) throw new Error("usage: latency-summary.ts <file.json> [slots]");
  const slots = Number(slotsArg ?? 64);
  const r = JSON.parse(readFileSync(file, "utf8")) as LatencyRecord;
  const done = r.attempts.filter((a) => a.bodyEnd !== null && a.end !== null);
  console.log(`attempts ${r.attempts.length}`);
  console.log(
    dist(
      "  body (start to body end)",
      done.map((a) => a.bodyEnd! - a.start),
    ),
  );
  console.log(
    dist(
      "  outcome (body end to committed)",
      done.map((a) => a.end! - a.bodyEnd!),
    ),
  );
  const late = handOffLateness(r.attempts, slots);
  if (late.length) {
    console.log(dist(`  hand-off lateness (${slots} slots)`, late));
    const waves: string[] = [];
    for (let w = 0; w * slots < late.length; w++) {
      const part = late.slice(w * slots, (w + 1) * slots);
      waves.push(`${f(pct(part, 50))}/${f(Math.max(...part))}`);
    }
    console.log(`  per wave after the first, lateness p50/max ms: ${waves.join("  ")}`);
    const first = Math.min(...r.attempts.map((a) => a.start));
    const last = Math.max(...done.map((a) => a.end!));
    console.log(`  first start to last outcome: ${f(last - first)} ms`);
  }
  const byRun = new Map<string, AttemptTimes[]>();
  for (const a of r.attempts) byRun.set(a.run, [...(byRun.get(a.run) ?? []), a]);
  const runs = Object.entries(r.runs).filter(([, t]) => t.created && t.completed);
  if (runs.length) {
    const total = runs.map(([, t]) => t.completed! - t.created!);
    console.log(dist(`runs (created to completed published)`, total));
    const cut = pct(total, 99);
    const slow = runs.filter(([, t]) => t.completed! - t.created! >= cut);
    console.log(`  slowest 1 % (>= ${f(cut)} ms), segments in ms:`);
    for (const [id, t] of slow.slice(0, 12)) {
      const steps = (byRun.get(id) ?? []).sort((a, b) => a.start - b.start);
      const parts: string[] = steps.length > 8 ? [`${steps.length} attempts`] : [];
      let at = t.created!;
      for (const s of steps.length > 8 ? [] : steps) {
        parts.push(`wait ${f(s.start - at)}`, `${s.node} ${f((s.bodyEnd ?? s.start) - s.start)}`);
        parts.push(`commit ${f((s.end ?? 0) - (s.bodyEnd ?? 0))}`);
        at = s.end ?? at;
      }
      const gcs = r.gc.filter((g) => g.at + g.ms >= t.created! && g.at <= t.completed!);
      const gcMs = gcs.reduce((sum, g) => sum + g.ms, 0);
      console.log(
        `    ${f(t.completed! - t.created!)}: ${parts.join(", ")}; gc inside ${gcs.length} (${f(gcMs)} ms)`,
      );
    }
  }
  console.log(dist("unit commit latency (queued to committed)", r.commits));
  const t = r.transactions;
  if (t) {
    const per = f(t.units / Math.max(1, t.count));
    console.log(`transactions ${t.count}, units ${t.units}: ${per} a COMMIT, largest ${t.largest}`);
  }
  const gcMs = r.gc.map((g) => g.ms);
  const total = gcMs.reduce((a, b) => a + b, 0);
  console.log(`${dist("gc pauses", gcMs)}, total ${f(total)} ms`);
  const kinds = new Map<number, number>();
  for (const g of r.gc) kinds.set(g.kind, (kinds.get(g.kind) ?? 0) + 1);
  console.log(`  by kind (1 minor, 2 major, 4 incremental, 8 weak): ${JSON.stringify([...kinds])}`);
  const d = r.loopDelay;
  console.log(
    `event-loop delay: p50 ${f(d.p50)} p99 ${f(d.p99)} max ${f(d.max)} mean ${f(d.mean)} ms`,
  );
  const mem = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${v.toFixed(1)}`)
      .join(", ");
  console.log(`memory peaks MiB (${r.memory.samples} samples): ${mem(r.memory.peak)}`);
  console.log(`  at the peak of rss: ${mem(r.memory.atPeakRss)}`);
}

main();
