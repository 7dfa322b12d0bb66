// ctx.log, ctx.ask and ctx.publish refuse what the API could not serve back: the attempt
// dead-letters with a message naming the member and the problem, and nothing is stored.
import { afterEach, describe, expect, it } from "vitest";
import { workflow } from "../../src/authoring/index.ts";
import { type Harness, startHarness } from "../support/engine-harness.ts";

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

type Misuse = (ctx: any) => Promise<unknown> | unknown;

/** A one-node workflow (retries 2) whose body misuses ctx as `misuse` says. */
function misusing(name: string, misuse: Misuse) {
  const wf = workflow(name);
  wf.node({ start: true, retries: 2 }, async function only({}: any, _input: unknown, ctx: any) {
    await misuse(ctx);
    return "unreachable";
  });
  return wf;
}

async function deadLetterOf(name: string, misuse: Misuse) {
  h = await startHarness();
  h.register(misusing(name, misuse));
  const { run_id } = await h.service.submitRun(name, { title: name });
  const failed = await h.waitEvent("run.failed", (e) => e.run_id === run_id);
  const tasks = await h.store.listTasks({ run_id });
  const log = await h.store.listLog(run_id);
  const events = await h.store.listEvents({ run_id });
  return { failed, tasks, log, events };
}

describe("ctx inputs", () => {
  it.each<[string, Misuse, RegExp]>([
    [
      "log_kind",
      (ctx) => ctx.log("x", { kind: "bogus" }),
      /ctx\.log: kind must be one of deliverable, note, stats, failure .*"bogus"/,
    ],
    [
      "log_empty",
      (ctx) => ctx.log(""),
      /ctx\.log: text must be a non-empty string, got an empty string/,
    ],
    [
      "log_object",
      (ctx) => ctx.log({ a: 1 }),
      /ctx\.log: text must be a non-empty string, got object/,
    ],
    [
      "ask_empty",
      (ctx) => ctx.ask({ prompt: "" }),
      /ctx\.ask: prompt must be a non-empty string, got an empty string/,
    ],
    [
      "ask_option",
      (ctx) => ctx.ask({ prompt: "p", options: ["a", { name: "b" }] }),
      /ctx\.ask: options\[1\] must be/,
    ],
    [
      "ask_kind",
      (ctx) => ctx.ask({ prompt: "p", kind: "nag" }),
      /ctx\.ask: kind must be one of permission, elicitation, question/,
    ],
    [
      "pub_bigint",
      (ctx) => ctx.publish("big", { n: 1n }),
      /ctx\.publish: cannot convert \$\.n to JSON: BigInt/,
    ],
    [
      "pub_array",
      (ctx) => ctx.publish("arr", [1, 2]),
      /ctx\.publish: data must be an object, got an array/,
    ],
    [
      "pub_string",
      (ctx) => ctx.publish("str", "abc"),
      /ctx\.publish: data must be an object, got string/,
    ],
    ["pub_name", (ctx) => ctx.publish("a b", {}), /ctx\.publish: event name "a b" must match/],
  ])(
    "%s dead-letters the first attempt with a clear error and stores nothing",
    async (name, misuse, message) => {
      const { failed, tasks, log, events } = await deadLetterOf(name, misuse);
      expect(tasks.map((t) => [t.attempt, t.status])).toEqual([[1, "dead_letter"]]);
      expect(tasks[0].error).toMatch(message);
      expect(failed.data.error).toMatch(message);
      // The only log entry is the engine's failure note; no request and no plugin event was made.
      expect(log.map((e) => e.kind)).toEqual(["failure"]);
      expect(await h!.store.listRequests({ run_id: tasks[0].run_id })).toEqual([]);
      expect(
        events.filter((e) => e.name.startsWith("plugin.") || e.name === "request.opened"),
      ).toEqual([]);
    },
  );

  it("stores what the checks accept: a dotted event name, a toJSON'd value, a kind", async () => {
    h = await startHarness();
    const wf = workflow("fine");
    wf.node({ start: true }, async function only({}: any, _input: unknown, ctx: any) {
      ctx.publish("phase.done", { at: new Date(0), skip: undefined });
      return ctx.log("shipped", { kind: "deliverable" });
    });
    h.register(wf);
    const { run_id } = await h.service.submitRun("fine", { title: "fine" });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    const published = await h.waitEvent("plugin.fine.phase.done", (e) => e.run_id === run_id);
    expect(published.data).toEqual({ at: "1970-01-01T00:00:00.000Z" });
    expect((await h.store.listLog(run_id)).map((e) => [e.kind, e.text])).toEqual([
      ["deliverable", "shipped"],
    ]);
  });
});
