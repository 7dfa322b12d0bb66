// The workflows the benchmark registers. They are written exactly as a user writes them and
// loaded by the server from this file, so the measured path is the real one (loader, routing,
// payload encoding). Sizes come from the run title, since the driver and the server share
// nothing but HTTP.
import { type Arrival, workflow } from "yardmaster";

/** W1, W2, W5: a 3-node chain whose bodies only add one to their input. */
export const chain3 = workflow("chain3");

chain3.node({ start: true }, async function a({ b }, _input: { title: string }) {
  return b(1);
});

chain3.node(async function b({ c }, n: number) {
  return c(n + 1);
});

chain3.node(async function c({}, n: number) {
  return n + 1;
});

/** W3: the start node fans out to as many branches as the title says (20 by default). */
export const fan = workflow("fan");

fan.node({ start: true }, async function spread({ branch }, input: { title: string }) {
  const width = Number(input.title) || 20;
  return Array.from({ length: width }, (_, i) => branch(i));
});

fan.node(async function branch({ gather }, i: number) {
  return gather(i + 1);
});

fan.node({ join: true }, async function gather({}, arrivals: Arrival<number>[]) {
  return arrivals.reduce((sum, a) => sum + a.value, 0);
});

/** W4: one attempt that sleeps as many milliseconds as the title says (50 by default). */
export const nap = workflow("nap");

nap.node({ start: true }, async function sleep({}, input: { title: string }, ctx) {
  const ms = Number(input.title) || 50;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    ctx.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return ms;
});

/** W4 (one-run form): one run whose start fans out to as many sleeping branches as the title says. */
export const napfan = workflow("napfan");

napfan.node({ start: true }, async function scatter({ doze }, input: { title: string }) {
  const [count, ms] = input.title.split("x").map(Number);
  return Array.from({ length: count || 400 }, () => doze(ms || 50));
});

napfan.node(async function doze({}, ms: number, ctx) {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    ctx.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return ms;
});
