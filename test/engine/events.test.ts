// Keeps the event map (src/engine/events.ts) honest: real runs through a real engine (and, for
// the agent and registration events, a real server with the scripted ACP agent) emit every core
// event, and each event's data, as a client receives it (after JSON), must fit its schema in the
// map. The schemas are strict objects, so a field an emit site adds without the map fails here,
// and so does a field the map promises that the code leaves out. The last test checks that the
// runs above produced every core event name, so no entry of the map goes unchecked.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Arrival, NonRetryable, workflow } from "../../src/authoring/index.ts";
import type { EventRecord } from "../../src/engine/domain.ts";
import {
  type CoreEventName,
  EPHEMERAL_EVENT_NAMES,
  EVENT_NAMES,
  EVENTS,
  ManualClock,
  PLUGIN_EVENT_PATTERN,
} from "../../src/engine/index.ts";
import { eventDataComponent } from "../../src/service/schemas/events.ts";
import { startApp } from "../http/fixtures.ts";
import { type AgentServer, startAgentServer } from "../support/agent-server.ts";
import { gate, type Harness, startHarness } from "../support/engine-harness.ts";

const seen = new Set<string>();

/** What is wrong with `events` against the map; records the names it saw. */
function problemsOf(events: readonly EventRecord[]): string[] {
  const problems: string[] = [];
  for (const e of events) {
    seen.add(e.name);
    const data = JSON.parse(JSON.stringify(e.data));
    if (e.name.startsWith("plugin.")) {
      if (!PLUGIN_EVENT_PATTERN.test(e.name)) problems.push(`${e.name}: not a plugin event name`);
      if (typeof data !== "object" || data === null || Array.isArray(data)) {
        problems.push(`${e.name}: data is not a JSON object`);
      }
      continue;
    }
    const entry = EVENTS[e.name as CoreEventName];
    if (!entry) {
      problems.push(`${e.name}: not in the map`);
      continue;
    }
    const parsed = entry.data.safeParse(data);
    if (!parsed.success) {
      problems.push(`${e.name} ${JSON.stringify(data)}: ${parsed.error.message}`);
    }
    if ((EPHEMERAL_EVENT_NAMES as readonly string[]).includes(e.name) && e.id !== null) {
      problems.push(`${e.name}: ephemeral but stored as ${e.id}`);
    }
  }
  return problems;
}

function blocking(name: string) {
  const hold = gate();
  const wf = workflow(name);
  wf.node({ start: true }, async function a({ b }: any, input: unknown) {
    await hold.promise;
    return b(input);
  });
  wf.node(async function b({}: any, input: unknown) {
    return input;
  });
  return { wf, hold };
}

describe("the engine's events fit the map", () => {
  let h: Harness | undefined;
  afterAll(async () => {
    await h?.close();
  });

  it("runs: fan-out and join, retry, dead letter, ask and answer, log and publish", async () => {
    h = await startHarness();
    const flaky = new Set<string>();
    const flow = workflow("events_flow");
    flow.node({ start: true }, async function split({ work }: any, _input: unknown, ctx: any) {
      await ctx.log("splitting", { kind: "note" });
      await ctx.log("no kind");
      ctx.publish("progress", { step: 1, parts: ["a", "bb"] });
      return ["a", "bb"].map((part) => work(part));
    });
    flow.node({ retries: 1 }, async function work({ gather }: any, part: string) {
      if (part === "bb" && !flaky.has(part)) {
        flaky.add(part);
        throw new Error("flaky once");
      }
      return gather(part.toUpperCase());
    });
    flow.node({ join: true }, async function gather({ decide }: any, arrivals: Arrival[]) {
      return decide(arrivals.map((a) => a.value));
    });
    flow.node(async function decide({}: any, values: unknown, ctx: any) {
      const choice = await ctx.ask({ prompt: "Ship?", options: ["yes", "no"] });
      const why = await ctx.ask({
        prompt: "Why?",
        schema: { type: "object", properties: { why: { type: "string" } } },
      });
      return { values, choice, why };
    });
    h.register(flow);

    const dead = workflow("events_dead");
    dead.node({ start: true }, async function only() {
      throw new NonRetryable("no");
    });
    h.register(dead);

    const partial = workflow("events_partial");
    partial.node({ start: true }, async function split({ work }: any) {
      return [work(1), work(0)];
    });
    partial.node(async function work({ gather }: any, n: number) {
      if (n === 0) throw new NonRetryable("zero");
      return gather(n);
    });
    partial.node({ join: true }, async function gather({}: any, xs: Arrival[]) {
      return xs.length;
    });
    h.register(partial);

    // A sleep (task.sleeping, task.resumed with no request) and a retry after a backoff.
    const timed = workflow("events_timed");
    let timedCalls = 0;
    timed.node(
      { start: true, retries: 1, backoff: { initial: 0.01, jitter: false } },
      async function nap({}: any, _input: unknown, ctx: any) {
        timedCalls += 1;
        if (timedCalls === 1) throw new Error("once");
        await ctx.sleep(0.01);
        return "ok";
      },
    );
    h.register(timed);

    const { run_id } = await h.service.submitRun("events_flow", { title: "t" });
    const first = await h.waitEvent("request.opened", (e) => e.run_id === run_id);
    await h.service.answerRequest(first.data.request_id as number, { option_id: "yes" });
    const second = await h.waitEvent(
      "request.opened",
      (e) => e.run_id === run_id && e.data.ordinal === 2,
    );
    await h.service.answerRequest(second.data.request_id as number, { value: { why: "ok" } });
    await h.waitEvent("run.completed", (e) => e.run_id === run_id);
    expect(h.named("task.failed", run_id).map((e) => e.data.will_retry)).toEqual([true]);

    const d = await h.service.submitRun("events_dead", { title: "t" });
    await h.waitEvent("run.failed", (e) => e.run_id === d.run_id);
    const p = await h.service.submitRun("events_partial", { title: "t" });
    const failed = await h.waitEvent("run.failed", (e) => e.run_id === p.run_id);
    expect(failed.data.code).toBe("join_incomplete");
    const t = await h.service.submitRun("events_timed", { title: "t" });
    await h.waitEvent("run.completed", (e) => e.run_id === t.run_id);
    expect(h.named("task.failed", t.run_id)[0].data.retry_at).toEqual(expect.any(String));

    expect(problemsOf(h.events)).toEqual([]);
  });

  it("operations: edit, log, position, pause, resume, move, rerun, retry, set status, cancel, delete", async () => {
    const ops = blocking("events_ops");
    h!.register(ops.wf);
    const s = h!.service;
    const a = await s.submitRun("events_ops", { title: "a" });
    const b = await s.submitRun("events_ops", { title: "b" });
    const c = await s.submitRun("events_ops", { title: "c" });
    const started = await h!.waitEvent("task.started", (e) => e.run_id === a.run_id);
    await h!.waitEvent("task.started", (e) => e.run_id === b.run_id);
    await s.editRun(a.run_id, { title: "a2", description: "d2" });
    await s.appendRunLog(a.run_id, { text: "operator note" });
    await s.positionRun(b.run_id, { direction: -1 });
    await s.pauseRun(c.run_id);
    await s.resumeRun(c.run_id);
    // move the blocked attempt of `a` to `b`: cancelled (reason move), moved, enqueued at b
    await s.moveTask(started.task_id!, { node: "b" });
    await h!.waitEvent("run.completed", (e) => e.run_id === a.run_id);
    // re-open the ended run: run.updated {changed: {status}}, then the rerun's task.enqueued
    await s.rerun(a.run_id, { node: "b" });
    await h!.waitFor(() => h!.named("run.completed", a.run_id).length === 2, "a completed again");
    // set status on b's live attempt (cancelled), then retry it (manual_retry), then set it ready
    const bTask = h!.named("task.started", b.run_id)[0].task_id!;
    await s.setTaskStatus(bTask, { status: "dead_letter" });
    const retried = await s.retryTask(bTask);
    await s.setTaskStatus(retried.task_id, { status: "ready" });
    await s.setTaskStatus(retried.task_id, { status: "cancelled" });
    await s.cancelRun(c.run_id);
    await s.deleteRun(c.run_id);
    ops.hold.open();
    await h!.waitFor(
      () => h!.events.some((e) => e.name === "run.deleted" && e.run_id === c.run_id),
      "run.deleted",
    );
    for (const name of [
      "run.updated",
      "run.reordered",
      "run.paused",
      "run.resumed",
      "task.moved",
      "task.status_set",
      "run.cancelled",
      "task.cancelled",
    ]) {
      expect(h!.named(name).length, name).toBeGreaterThan(0);
    }
    expect(problemsOf(h!.events)).toEqual([]);
  });

  it("a stop and a restart: engine.stopping, then engine.recovered", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ym-events-"));
    try {
      const first = await startHarness({ dir });
      const ops = blocking("events_restart");
      first.register(ops.wf);
      const { run_id } = await first.service.submitRun("events_restart", { title: "t" });
      await first.waitEvent("task.started", (e) => e.run_id === run_id);
      // A server of a shared store (PostgreSQL) hands its attempts back as it stops.
      const shared = first.engine.cluster !== null;
      await first.close();
      expect(problemsOf(first.events)).toEqual([]);
      if (shared) expect(first.named("engine.recovered").length).toBe(1);
      const second = await startHarness({ dir, start: false });
      second.register(blocking("events_restart").wf);
      await second.engine.start();
      try {
        if (!shared) await second.waitEvent("engine.recovered");
        expect(problemsOf(second.events)).toEqual([]);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("agent and registration events fit the map", () => {
  let s: AgentServer | undefined;
  afterAll(async () => {
    await s?.close();
    if (s) expect(problemsOf(s.events)).toEqual([]);
  });

  const ended = (run: string) =>
    s!
      .waitEvent("agent.stats", (e) => e.run_id === run)
      .then(() => s!.waitEvent("task.done", (e) => e.run_id === run));

  it("sessions: transcript, submissions, repair, asks, permissions, a failed session", async () => {
    s = await startAgentServer();
    const talk = {
      turns: [[{ thought: "Let me look." }, { text: "Hello" }, { submit: { answer: "42" } }]],
    };
    await ended(await s.start("agentic", { script: talk }));
    const repair = { turns: [[{ submit: { answer: 3 } }], [{ submit: { answer: "fixed" } }]] };
    await ended(await s.start("agentic", { script: repair, zod: true }));
    const asking = { turns: [[{ permission: "Delete build/" }, { submit: "$permission" }]] };
    await ended(await s.start("agentic", { script: asking, permissions: "deny" }));
    const person = await s.start("agentic", { script: asking });
    const opened = await s.waitEvent("request.opened", (e) => e.run_id === person);
    await s.call("POST", `/api/requests/${opened.data.request_id}/answer`, { option_id: "allow" });
    await ended(person);
    const http = { turns: [[{ ask: "Which colour?" }, { submit: { colour: "red" } }]] };
    await ended(await s.start("agentic", { script: http, ask: "http" }));
    const nothing = await s.start("agentic", { script: { turns: [[{ text: "no" }]] }, repair: 1 });
    await s.waitEvent("task.dead_lettered", (e) => e.run_id === nothing);
    for (const name of ["task.stream", "submission.rejected", "submission.repair"]) {
      expect(s.named(name).length, name).toBeGreaterThan(0);
    }
    expect(problemsOf(s.events)).toEqual([]);
  });

  it("registration: registered, replaced, unregistered", async () => {
    writeFileSync(
      join(s!.dir, "events_hot.ts"),
      `import { workflow } from "yardmaster";
export const events_hot = workflow("events_hot");
events_hot.node({ start: true }, async function only() { return 1; });
`,
    );
    const target = "events_hot.ts:events_hot";
    expect((await s!.call("POST", "/api/workflows", { target })).status).toBe(201);
    expect((await s!.call("PUT", "/api/workflows/events_hot", {})).status).toBe(200);
    expect((await s!.call("DELETE", "/api/workflows/events_hot")).status).toBe(200);
    for (const name of ["workflow.registered", "workflow.replaced", "workflow.unregistered"]) {
      expect(s!.named(name).length, name).toBe(1);
    }
    expect(problemsOf(s!.events)).toEqual([]);
  });
});

describe("schedule events fit the map", () => {
  it("schedule.fired and schedule.skipped", async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 0, 0, 1));
    const h = await startHarness({ clock, start: false });
    try {
      const wf = workflow("events_sched");
      wf.node({ start: true }, async function a({}: any) {
        return null;
      });
      h.register(wf);
      const every = { workflow: "events_sched", cron: "0 * * * *", title: "T" };
      await h.engine.commands.syncSchedules([
        { ...every, name: "fires" },
        { ...every, name: "skips", workflow: "missing" },
      ]);
      await h.engine.start();
      clock.advance(3_600_000);
      await h.waitEvent("schedule.fired");
      await h.waitEvent("schedule.skipped");
      expect(problemsOf(h.events)).toEqual([]);
    } finally {
      await h.close();
    }
  });
});

describe("/openapi.json", () => {
  it("names each core event's data schema, and EventDataByName refers to each", async () => {
    const app = await startApp();
    try {
      const doc: any = await (await fetch(`${app.base}/openapi.json`)).json();
      const schemas = doc.components.schemas;
      const byName = schemas.EventDataByName;
      expect(Object.keys(byName.properties)).toEqual([...EVENT_NAMES]);
      expect(byName.required).toEqual([...EVENT_NAMES]);
      for (const name of EVENT_NAMES) {
        const component = eventDataComponent(name);
        expect(byName.properties[name], name).toEqual({
          $ref: `#/components/schemas/${component}`,
        });
        expect(schemas[component]?.type, component).toBe("object");
        expect(schemas[component].additionalProperties, component).toBe(false);
      }
      expect(eventDataComponent("agent.stats")).toBe("AgentStats");
      expect(eventDataComponent("task.dead_lettered")).toBe("EventData_task_dead_lettered");
    } finally {
      await app.app.close();
    }
  });
});

describe("coverage", () => {
  it("the runs above emitted every core event", () => {
    // engine.stopping of the agent server comes at its close, after this test: the harness's
    // stop above emitted one already.
    expect(EVENT_NAMES.filter((name) => !seen.has(name))).toEqual([]);
  });
});
