// The event stream and the stored events (http-api.md, Events). Over a `yardmaster serve`
// process: framing, envelopes, the data of every event, `after` over `Last-Event-ID`, and
// filters. Over a server in the test's process: live delivery, replay after a cursor without
// gap or duplicate, run and name filters; and event data field by field.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEnvelope } from "../support/api-shapes.ts";
import { ended, type Suite, startSuite } from "../support/operator-suite.ts";
import { runEvents, submitTo, untilEvent } from "../support/run-steps.ts";
import { defaultToml, FLOWS, startTestServer, type TestServer } from "../support/server-harness.ts";
import { type Envelope, openStream, SseClient } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";

let s: Suite;
let runs: string[] = [];
beforeAll(async () => {
  s = await startSuite();
  // A spread of runs so the stream carries most of the Events table.
  runs = [];
  for (const wf of ["chain", "fan", "partial", "flaky", "fatal", "asker"])
    runs.push(await s.submit(wf, wf));
  const asked = await s.tap.waitFor("ask", (e) => e.name === "request.opened");
  await s.server.call("POST", `/api/requests/${asked.data.request_id}/answer`, { option_id: "no" });
  const held = await s.submit("hold", "held");
  await s.untilTask(held, (t) => t.status === "in_progress", "held in progress");
  await s.server.call("PATCH", `/api/runs/${held}`, { title: "held!" });
  await s.server.call("POST", `/api/runs/${held}/log`, { text: "note" });
  await s.server.call("POST", `/api/runs/${held}/cancel`);
  runs.push(held);
  for (const id of runs) await s.untilRun(id, ended, `${id} ends`);
}, 30_000);
afterAll(async () => {
  await s?.stop();
}, 30_000);

const url = (query: string) => `${s.server.url}/api/events${query}`;

describe("the live stream", () => {
  it("frames each stored event with id:, event: and data: agreeing with the envelope", async () => {
    expect(s.tap.status).toBe(200);
    expect(s.tap.contentType).toMatch(/^text\/event-stream/);
    const framed = s.tap.frames().filter((f) => f.data !== undefined);
    expect(framed.length).toBeGreaterThan(50);
    for (const frame of framed) {
      const envelope = JSON.parse(frame.data as string) as Envelope;
      expect(frame.event).toBe(envelope.name);
      expect(frame.id).toBe(String(envelope.id));
      checkEnvelope(envelope, true);
    }
    const names = new Set(s.tap.events().map((e) => e.name));
    for (const name of [
      "run.updated",
      "run.cancelled",
      "run.failed",
      "task.failed",
      "join.arrived",
      "task.resumed",
    ]) {
      expect(names, name).toContain(name);
    }
  });

  it("the run events page is the same envelopes, oldest first, paged by after and limit", async () => {
    for (const id of runs) {
      const page = await s.stored(id);
      const live = s.eventsOf(id);
      expect(page).toEqual(live);
      const ids = page.map((e) => e.id as number);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(page.some((e) => e.name === "task.stream")).toBe(false);
    }
    const all = await s.stored(runs[1]);
    const first = await s.server.call("GET", `/api/runs/${runs[1]}/events?limit=2`);
    expect(first.body).toEqual(all.slice(0, 2));
    const next = await s.server.call(
      "GET",
      `/api/runs/${runs[1]}/events?after=${all[1].id}&limit=3`,
    );
    expect(next.body).toEqual(all.slice(2, 5));
  });

  it("replays after `after`, which takes precedence over Last-Event-ID", async () => {
    const page = await s.stored(runs[0]);
    const [a, b] = [page[1].id as number, page[4].id as number];
    const both = await openStream(url(`?run=${runs[0]}&after=${a}`), {
      "last-event-id": String(b),
    });
    const header = await openStream(url(`?run=${runs[0]}`), { "last-event-id": String(b) });
    try {
      const want = page.filter((e) => (e.id as number) > a);
      await both.waitFor("replay", () => both.events().length >= want.length);
      expect(both.events()).toEqual(want);
      const fromHeader = page.filter((e) => (e.id as number) > b);
      await header.waitFor("header replay", () => header.events().length >= fromHeader.length);
      expect(header.events()).toEqual(fromHeader);
    } finally {
      both.close();
      header.close();
    }
  });

  it("filters by run and by names, where `*` matches exactly one dotted segment", async () => {
    const streams = {
      run: await openStream(url(`?after=0&run=${runs[0]}`)),
      runStar: await openStream(url("?after=0&names=run.*")),
      created: await openStream(url("?after=0&names=*.created,join.arrived")),
      plugin1: await openStream(url("?after=0&names=plugin.*")),
      plugin2: await openStream(url("?after=0&names=plugin.*.*")),
    };
    try {
      // Each filtered replay must equal the live tap filtered the same way.
      const live = s.tap.events();
      const expectSame = async (stream: typeof streams.run, keep: (e: Envelope) => boolean) => {
        const want = live.filter(keep);
        await stream.waitFor("filtered replay", () => stream.events().length >= want.length);
        expect(stream.events().slice(0, want.length)).toEqual(want);
      };
      await expectSame(streams.run, (e) => e.run_id === runs[0]);
      await expectSame(streams.runStar, (e) => /^run\.[^.]+$/.test(e.name));
      await expectSame(
        streams.created,
        (e) => e.name.endsWith(".created") || e.name === "join.arrived",
      );
      await expectSame(streams.plugin2, (e) => /^plugin\.[^.]+\.[^.]+$/.test(e.name));
      expect(streams.plugin2.events().length).toBeGreaterThan(0);
      expect(streams.plugin1.events().filter((e) => e.name.startsWith("plugin."))).toEqual([]);
    } finally {
      for (const stream of Object.values(streams)) stream.close();
    }
  });

  it("run.deleted reaches the stream without an id and is not replayed", async () => {
    const id = await s.submit("chain", "gone");
    await s.untilRun(id, ended, "ends");
    expect((await s.server.call("DELETE", `/api/runs/${id}`)).status).toBe(204);
    const deleted = await s.tap.waitFor(
      "run.deleted",
      (e) => e.run_id === id && e.name === "run.deleted",
    );
    checkEnvelope(deleted, false);
    // A later run's completion marks the end of the replay.
    const marker = await s.submit("chain", "marker");
    await s.untilRun(marker, ended, "marker ends");
    const replay = await openStream(url("?after=0&names=run.deleted,run.completed"));
    try {
      await replay.waitFor("replay", (e) => e.name === "run.completed" && e.run_id === marker);
      expect(replay.events().some((e) => e.name === "run.deleted")).toBe(false);
    } finally {
      replay.close();
    }
  });
});

describe("over a server in the test's process: live delivery and replay", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Opens the stream and keeps the frames that name an event until stopped. */
  function listen(query: string, headers: Record<string, string> = {}) {
    const client = new SseClient(`${s.url}/api/events${query}`, headers);
    void client.response().then((res) => {
      expect(res.headers["content-type"]).toMatch(/text\/event-stream/);
    });
    return {
      get frames() {
        return client.frames().filter((f) => f.event);
      },
      stop: () => client.close(),
    };
  }

  async function completedRun(title: string) {
    const { body } = await s.call("POST", "/api/workflows/fan/runs", { title });
    await eventually(
      async () => (await s.call("GET", `/api/runs/${body.run_id}`)).body.status === "completed",
      "run",
    );
    return body.run_id as string;
  }

  describe("GET /api/events", () => {
    it("delivers live events with id, event and the envelope", async () => {
      const l = listen("");
      await new Promise((r) => setTimeout(r, 100));
      const runId = await completedRun("a,b");
      await eventually(
        async () => l.frames.some((f) => f.event === "run.completed"),
        "run.completed frame",
      );
      l.stop();
      const created = l.frames.find((f) => f.event === "run.created")!;
      const env = JSON.parse(created.data!);
      expect(env).toMatchObject({
        name: "run.created",
        run_id: runId,
        task_id: null,
        data: { title: "a,b", workflow: "fan" },
      });
      expect(String(env.id)).toBe(created.id);
      const ids = l.frames.filter((f) => f.id).map((f) => Number(f.id));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it("replays after a cursor, then goes live, without gap or duplicate", async () => {
      const first = await completedRun("x");
      const stored = (await s.call("GET", `/api/runs/${first}/events`)).body;
      const cursor = stored[2].id;
      const l = listen(`?after=${cursor}`, { "last-event-id": "1" });
      const second = await completedRun("y,z");
      await eventually(
        async () =>
          l.frames.some(
            (f) => f.event === "run.completed" && JSON.parse(f.data!).run_id === second,
          ),
        "second run completed",
      );
      l.stop();
      const ids = l.frames.filter((f) => f.id).map((f) => Number(f.id));
      expect(ids[0]).toBe(cursor + 1);
      expect(new Set(ids).size).toBe(ids.length);
      for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    });

    it("filters by run and by name globs", async () => {
      const l = listen("?names=run.*");
      const other = listen("");
      await new Promise((r) => setTimeout(r, 100));
      const runId = await completedRun("q");
      const byRun = listen(`?run=${runId}&after=0`);
      await eventually(
        async () => byRun.frames.some((f) => f.event === "run.completed"),
        "run filter replay",
      );
      await eventually(
        async () => l.frames.some((f) => f.event === "run.completed"),
        "names filter",
      );
      l.stop();
      other.stop();
      byRun.stop();
      expect(l.frames.every((f) => f.event!.startsWith("run."))).toBe(true);
      expect(byRun.frames.every((f) => JSON.parse(f.data!).run_id === runId)).toBe(true);
      expect(byRun.frames[0].event).toBe("run.created");
    });
  });
});

describe("over a server in the test's process: event data field by field", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(
      defaultToml(
        ["late", "impatient"].map((w) => `[workflows.${w}]\ntarget = "${FLOWS}:${w}"\n`).join(""),
      ),
    );
  });
  afterAll(async () => {
    await s?.close();
  });

  const submit = (workflow: string, title: string) => submitTo(s, workflow, title);
  const events = async (runId: string, name: string) =>
    (await runEvents(s, runId)).filter((e) => e.name === name);

  /** Submits a run and answers once its first attempt is in flight. */
  async function submitInFlight(workflow: string, title: string): Promise<string> {
    const runId = await submit(workflow, title);
    await eventually(
      async () => (await s.call("GET", `/api/runs/${runId}`)).body.current_nodes?.length === 1,
      `${workflow} in flight`,
    );
    return runId;
  }

  /**
   * A cancelled body wakes from its aborted sleep and carries on for a moment; a whole run of
   * another workflow, submitted after the cancel, completes well after that moment.
   */
  async function afterStoppedBody(): Promise<void> {
    const next = await submit("chain", "after");
    await eventually(
      async () => (await s.call("GET", `/api/runs/${next}`)).body.status === "completed",
      "a later run completed",
    );
  }

  describe("log.appended", () => {
    it("previews the first 200 characters, counted as characters, not UTF-16 units", async () => {
      const runId = await submit("asker", "preview");
      const text = `${"🙂".repeat(150)}${"é".repeat(100)}`;
      const posted = await s.call("POST", `/api/runs/${runId}/log`, { text });
      expect(posted.status).toBe(200);
      const [appended] = (await events(runId, "log.appended")).filter(
        (e) => e.data.log_id === posted.body.log_id,
      );
      expect(appended.data).toEqual({
        author: "user",
        kind: null,
        log_id: posted.body.log_id,
        node: expect.any(String),
        preview: `${"🙂".repeat(150)}${"é".repeat(50)}`,
      });
      const log = await s.call("GET", `/api/runs/${runId}/log`);
      expect(log.body.at(-1).text).toBe(text);
    });
  });

  describe("a cancelled run", () => {
    it("ends with run.cancelled: the stopped body writes nothing more", async () => {
      const runId = await submitInFlight("chain", "sleep:400");
      const cancel = await s.call("POST", `/api/runs/${runId}/cancel`);
      expect(cancel.body).toEqual({ ok: true, note: "Stopped 1 attempt." });
      await afterStoppedBody();
      const all = await runEvents(s, runId);
      expect(all.at(-1)).toMatchObject({
        name: "run.cancelled",
        data: { cancelled_tasks: [expect.any(Number)] },
      });
      expect((await s.call("GET", `/api/runs/${runId}/log`)).body).toEqual([]);
    });
  });

  describe("a stopped attempt that asks", () => {
    it("opens no request: nothing is left to take its answer", async () => {
      const runId = await submitInFlight("late", "400");
      expect((await s.call("POST", `/api/runs/${runId}/cancel`)).status).toBe(200);
      await afterStoppedBody();
      expect((await s.call("GET", `/api/runs/${runId}/requests`)).body).toEqual([]);
      expect((await s.call("GET", `/api/requests?pending=true&run=${runId}`)).body).toEqual([]);
    });
  });

  describe("an attempt that stops waiting on its own", () => {
    it("ends with its body's value, and the request it left unanswered goes stale", async () => {
      const runId = await submit("impatient", "100");
      const completed = await untilEvent(s, runId, (e) => e.name === "run.completed");
      expect(completed.data).toMatchObject({ output: "no answer", node: "hurry" });
      const [task] = (await s.call("GET", `/api/runs/${runId}`)).body.tasks;
      expect(task).toMatchObject({ status: "done", attempt: 1, result: "no answer" });
      const [req] = (await s.call("GET", `/api/runs/${runId}/requests`)).body;
      expect(req).toMatchObject({ pending: false, stale: true });
      expect((await events(runId, "task.started")).length).toBe(1);
    });
  });
});
