// The black-box suite's own workflows, written to disk as a user would write them, and the
// `yardmaster.toml` that registers them. `hold` parks until the suite drops a release file
// (or the attempt is aborted), which gives a run that stays in progress as long as needed.
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const flows = (dir: string) => `
import { existsSync } from "node:fs";
import { NonRetryable, workflow } from "yardmaster";

const DIR = ${JSON.stringify(dir)};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function parked(key: string, signal: AbortSignal) {
  while (!existsSync(DIR + "/release-" + key) && !existsSync(DIR + "/release-all")) {
    if (signal.aborted) throw new Error("aborted");
    await sleep(20);
  }
}

export const chain = workflow("chain");
chain.node({ start: true }, async function intake({ shout }, input: { title: string }) {
  return shout({ name: input.title });
});
chain.node(async function shout({}, who: { name: string }, ctx: any) {
  await ctx.log("greeting " + who.name);
  await ctx.publish("hello", { name: who.name });
  return "HELLO, " + who.name.toUpperCase() + "!";
});

function holding(name: string) {
  const wf = workflow(name);
  wf.node({ start: true }, async function grip({ after }, input: { title: string }, ctx: any) {
    await parked(ctx.task.run_id, ctx.signal);
    return after(input.title);
  });
  wf.node(async function after({}, value: unknown) {
    return value;
  });
  return wf;
}
export const hold = holding("hold");
export const gate = holding("gate");

export const fan = workflow("fan");
fan.node({ start: true }, async function split({ work }) {
  return [work(1), work(2), work(3)];
});
fan.node(async function work({ gather }, n: number) {
  return n * 10;
});
fan.node({ join: true }, async function gather({}, arrivals: any[]) {
  return arrivals;
});

export const multi = workflow("multi");
multi.node({ start: true }, async function split({ leaf }) {
  return [leaf("a"), leaf("b")];
});
multi.node(async function leaf({}, s: string) {
  return s.toUpperCase();
});

export const partial = workflow("partial");
partial.node({ start: true }, async function split({ work }) {
  return [work(1), work(2)];
});
partial.node(async function work({ gather }, n: number) {
  return n === 2 ? [] : gather(n);
});
partial.node({ join: true }, async function gather({}, arrivals: any[]) {
  return arrivals.length;
});

export const looper = workflow("looper");
looper.node({ start: true }, async function begin({ tick }) {
  return tick(0);
});
looper.node(async function tick({ tick, end }, n: number) {
  return n < 2 ? tick(n + 1) : end(n);
});
looper.node(async function end({}, n: number) {
  return n;
});

export const flaky = workflow("flaky");
flaky.node({ start: true, retries: 1 }, async function shaky() {
  throw new Error("boom");
});

export const wobbly = workflow("wobbly");
wobbly.node({ start: true, retries: 1 }, async function teeter({}, input: unknown, ctx: any) {
  if (ctx.task.attempt === 1) await parked(ctx.task.run_id, ctx.signal);
  throw new Error("wobble " + ctx.task.attempt);
});

export const blank = workflow("blank");
blank.node({ start: true }, async function nothing() {
  return null;
});

export const patient = workflow("patient");
patient.node({ start: true, timeout: 0.5 }, async function wait({}, input: unknown, ctx: any) {
  return await ctx.ask({ prompt: "take your time" });
});

export const fatal = workflow("fatal");
fatal.node({ start: true, retries: 3 }, async function doomed() {
  throw new NonRetryable("no hope");
});

export const slow = workflow("slow");
slow.node({ start: true, timeout: 0.3 }, async function crawl({}, input: unknown, ctx: any) {
  await parked("never", ctx.signal);
});

export const asker = workflow("asker");
asker.node({ start: true }, async function ask({ done }, input: unknown, ctx: any) {
  const answer = await ctx.ask({ prompt: "ok?", options: ["yes", "no"] });
  return done(answer);
});
asker.node(async function done({}, answer: string) {
  return answer;
});
`;

const NAMES = [
  "chain",
  "hold",
  "gate",
  "fan",
  "multi",
  "partial",
  "looper",
  "flaky",
  "wobbly",
  "blank",
  "patient",
  "fatal",
  "slow",
  "asker",
];

export function writeFlows(dir: string, server = ""): string {
  writeFileSync(join(dir, "flows.ts"), flows(dir));
  const rows = NAMES.flatMap((name) => [
    `[workflows.${name}]`,
    `target = "flows.ts:${name}"`,
    name === "gate" ? 'pool = "narrow"' : "",
    "",
  ]);
  const pools = ["[pools.default]", "capacity = 4", "", "[pools.narrow]", "capacity = 1", ""];
  return [
    "[server]",
    'host = "127.0.0.1"',
    server,
    "",
    "[defaults]",
    "retries = 0",
    "",
    ...pools,
    ...rows,
  ].join("\n");
}

export function release(dir: string, key: string): void {
  writeFileSync(join(dir, `release-${key}`), "");
}
