// Black-box conformance of the event stream and the stored events page (http-api.md, Events):
// framing, envelopes, the data of every event, `after` over `Last-Event-ID`, and filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ended, type Suite, startSuite } from "../support/blackbox-client.ts";
import { checkEnvelope } from "../support/blackbox-shapes.ts";
import { type Envelope, openStream } from "../support/sse.ts";

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
