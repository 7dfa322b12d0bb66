// Prints a store trace (BENCH_TRACE=1 npm run bench -- W1 writes bench/results/traces/W1-1.json)
// per step of the workload:
//   node --import tsx bench/trace-summary.ts <trace.json> <steps>
// For W1 the steps are runs x 3, for W3 runs x (width + 2).
import { readFileSync } from "node:fs";
import type { TraceReport } from "./store-trace.ts";

const [file, stepsArg] = process.argv.slice(2);
if (!file || !stepsArg) {
  console.error("usage: trace-summary.ts <trace.json> <steps>");
  process.exit(2);
}
const steps = Number(stepsArg);
const report: TraceReport = JSON.parse(readFileSync(file, "utf8"));
const rows = Object.entries(report).sort((a, b) => b[1].ms - a[1].ms);
const head = ["call", "calls", "per step", "total ms", "us/call", "us/step"];
console.log(head.join("\t"));
for (const [name, t] of rows) {
  const perCall = (1000 * t.ms) / t.calls;
  const perStep = (1000 * t.ms) / steps;
  const cells = [name, t.calls, (t.calls / steps).toFixed(2), t.ms.toFixed(0), perCall.toFixed(1)];
  console.log([...cells, perStep.toFixed(1)].join("\t"));
}
