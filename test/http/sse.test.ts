// GET /api/events: replay after a cursor then live with no gap or duplicate at the seam,
// filters, name globs, ephemeral frames without id, resync on the replay cap and for a reader
// that stops reading, heartbeats, and the bus subscription released on disconnect.
import { afterEach, describe, expect, it } from "vitest";
import { matchesEventGlob } from "../../src/http/sse/event-filter.ts";
import { SseClient, type SseFrame } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";
import { ArrayFeed, type Started, startApp } from "./fixtures.ts";

let s: Started;
const clients: SseClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await s?.app.close();
});

async function open(path: string, headers?: Record<string, string>): Promise<SseClient> {
  const client = new SseClient(s.base + path, headers);
  clients.push(client);
  await client.response();
  // The route subscribes before it answers, so the stream is live once headers arrive.
  return client;
}

const ids = (frames: SseFrame[]) => frames.map((f) => f.id ?? f.event);

async function until(client: SseClient, check: (frames: SseFrame[]) => boolean) {
  await client.until("the frames the test expects", check, 5000);
}

describe("replay and live", () => {
  it("replays after the cursor, then goes live, with each event once and in order", async () => {
    const feed = new ArrayFeed();
    for (let i = 0; i < 5; i++) feed.emit("task.started");
    let replays = 0;
    feed.onReplay = () => {
      replays++;
      // Published during the replay: event 6 is also in the store snapshot, 7 is read later.
      feed.emit("task.done");
      queueMicrotask(() => feed.emit("task.done"));
    };
    s = await startApp({ events: feed });
    const client = await open("/api/events?after=2");
    feed.onReplay = undefined;
    feed.emit("run.completed");
    await until(client, (f) => f.length >= 6);
    expect(replays).toBe(1);
    expect(ids(client.frames())).toEqual(["3", "4", "5", "6", "7", "8"]);
    const last = client.frames()[5];
    expect(last.event).toBe("run.completed");
    const envelope = JSON.parse(last.data ?? "");
    expect(Object.keys(envelope).sort()).toEqual([
      "created",
      "data",
      "id",
      "name",
      "run_id",
      "task_id",
    ]);
    expect(envelope.id).toBe(8);
    expect(new Date(envelope.created).toISOString()).toBe(envelope.created);
  });

  it("uses Last-Event-ID when there is no `after`, and `after` wins over it", async () => {
    const feed = new ArrayFeed();
    for (let i = 0; i < 4; i++) feed.emit("task.started");
    s = await startApp({ events: feed });
    const byHeader = await open("/api/events", { "last-event-id": "3" });
    const byQuery = await open("/api/events?after=1", { "last-event-id": "3" });
    feed.emit("run.completed");
    await until(byHeader, (f) => f.length >= 2);
    await until(byQuery, (f) => f.length >= 4);
    expect(ids(byHeader.frames())).toEqual(["4", "5"]);
    expect(ids(byQuery.frames())).toEqual(["2", "3", "4", "5"]);
  });

  it("is live only without a cursor", async () => {
    const feed = new ArrayFeed();
    feed.emit("task.started");
    s = await startApp({ events: feed });
    const client = await open("/api/events");
    feed.emit("task.done");
    await until(client, (f) => f.length >= 1);
    expect(ids(client.frames())).toEqual(["2"]);
  });

  it("sends ephemeral events without an id line", async () => {
    const feed = new ArrayFeed();
    s = await startApp({ events: feed });
    const client = await open("/api/events");
    feed.emit("task.stream", { data: { seq_from: 1, seq_to: 4 } });
    feed.emit("task.done");
    await until(client, (f) => f.length >= 2);
    const [stream, done] = client.frames();
    expect(stream.id).toBeUndefined();
    expect(stream.event).toBe("task.stream");
    const envelope = JSON.parse(stream.data ?? "");
    expect(envelope).toMatchObject({ name: "task.stream", data: { seq_from: 1, seq_to: 4 } });
    expect(envelope).not.toHaveProperty("id");
    expect(done.id).toBe("1");
  });
});

describe("filters", () => {
  it("keeps one run's events with `run`", async () => {
    const feed = new ArrayFeed();
    feed.emit("task.started", { run_id: "other" });
    feed.emit("task.started");
    s = await startApp({ events: feed });
    const client = await open(`/api/events?after=0&run=${encodeURIComponent("other")}`);
    feed.emit("task.done");
    feed.emit("engine.recovered", { run_id: null });
    feed.emit("task.done", { run_id: "other" });
    await until(client, (f) => f.length >= 2);
    expect(ids(client.frames())).toEqual(["1", "5"]);
  });

  it("matches names with globs where * is one dotted segment", async () => {
    const feed = new ArrayFeed();
    s = await startApp({ events: feed });
    const client = await open("/api/events?names=run.*,plugin.*.*,log.appended");
    for (const name of ["run.created", "task.started", "plugin.triage.scored", "log.appended"]) {
      feed.emit(name);
    }
    feed.emit("run.completed");
    await until(client, (f) => f.length >= 4);
    expect(client.frames().map((f) => f.event)).toEqual([
      "run.created",
      "plugin.triage.scored",
      "log.appended",
      "run.completed",
    ]);
  });

  it("treats * as exactly one segment", () => {
    expect(matchesEventGlob("run.*", "run.created")).toBe(true);
    expect(matchesEventGlob("run.*", "plugin.a.b")).toBe(false);
    expect(matchesEventGlob("plugin.*", "plugin.a.b")).toBe(false);
    expect(matchesEventGlob("plugin.*.*", "plugin.a.b")).toBe(true);
    expect(matchesEventGlob("*.done", "task.done")).toBe(true);
    expect(matchesEventGlob("task.*", "taskXdone")).toBe(false);
  });

  it("lets * inside a segment stand for characters of that segment only", () => {
    expect(matchesEventGlob("task.dead*", "task.dead_lettered")).toBe(true);
    expect(matchesEventGlob("run.*ed", "run.created")).toBe(true);
    expect(matchesEventGlob("run.c*t*d", "run.created")).toBe(true);
    expect(matchesEventGlob("run.c*x*d", "run.created")).toBe(false);
    expect(matchesEventGlob("run.cr*", "run.completed")).toBe(false);
    expect(matchesEventGlob("plugin.a*", "plugin.a.b")).toBe(false);
    expect(matchesEventGlob("ab*ab", "aba")).toBe(false);
    expect(matchesEventGlob("a*a*a", "aaa")).toBe(true);
    expect(matchesEventGlob("a*a*a", "aa")).toBe(false);
    expect(matchesEventGlob("*", "")).toBe(true);
  });

  it("agrees with the regular-expression reading of a glob on generated names", () => {
    // The old matcher translated each `*` into `[^.]*`; that reading is the rule, only its
    // cost changed. Compare both over every short name of a small alphabet.
    const asRegExp = (glob: string) =>
      new RegExp(
        `^${glob
          .split("*")
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
          .join("[^.]*")}$`,
      );
    const alphabet = ["a", "b", "."];
    const words = [""];
    for (let length = 1; length <= 5; length++) {
      for (const word of words.filter((w) => w.length === length - 1)) {
        for (const c of alphabet) words.push(word + c);
      }
    }
    const globs = ["a*", "*a", "a*b", "*.*", "a*.b*", "*a*b*", "ab*ab", "*", "a.*.b", "**a"];
    for (const glob of globs) {
      const re = asRegExp(glob);
      for (const word of words)
        expect([glob, word, matchesEventGlob(glob, word)]).toEqual([glob, word, re.test(word)]);
    }
  });
});

describe("resync", () => {
  it("sends resync instead of a replay over the cap, then goes live", async () => {
    const feed = new ArrayFeed();
    for (let i = 0; i < 10; i++) feed.emit("task.started");
    s = await startApp({ events: feed, sseReplayCap: 5 });
    const client = await open("/api/events?after=2");
    feed.emit("task.done");
    await until(client, (f) => f.length >= 2);
    const [resync, live] = client.frames();
    expect(resync).toEqual({ event: "resync", data: "{}" });
    expect(live.id).toBe("11");
  });

  it("replays exactly the cap without resync", async () => {
    const feed = new ArrayFeed();
    for (let i = 0; i < 7; i++) feed.emit("task.started");
    s = await startApp({ events: feed, sseReplayCap: 5 });
    const client = await open("/api/events?after=2");
    await until(client, (f) => f.length >= 5);
    expect(ids(client.frames())).toEqual(["3", "4", "5", "6", "7"]);
  });

  it("sends resync for a cursor beyond the stored history", async () => {
    const feed = new ArrayFeed();
    feed.emit("task.started");
    s = await startApp({ events: feed });
    const client = await open("/api/events?after=50");
    await until(client, (f) => f.length >= 1);
    expect(client.frames()[0].event).toBe("resync");
  });

  it("replays a backlog far over the live queue whole, at the pace the reader reads", async () => {
    const feed = new ArrayFeed();
    const big = "x".repeat(64 * 1024);
    const stored = 100; // 6.4 MB to replay (the fixture's cap is 100 events), a 64 KB live queue
    for (let i = 0; i < stored; i++) feed.emit("log.appended", { data: { preview: big } });
    s = await startApp({ events: feed, sse: { queueBytes: 64 * 1024 } });
    const client = await open("/api/events?after=0");
    const res = await client.response();
    res.pause();
    await new Promise((r) => setTimeout(r, 100)); // the replay waits on the full socket
    feed.emit("run.completed"); // live, published mid-replay
    res.resume();
    await until(client, (f) => f.at(-1)?.event === "run.completed");
    const expected = Array.from({ length: stored + 1 }, (_, i) => String(i + 1));
    expect(ids(client.frames())).toEqual(expected);
  });

  it("closes a stream whose reader stops reading mid-replay", async () => {
    const feed = new ArrayFeed();
    const big = "x".repeat(64 * 1024);
    for (let i = 0; i < 100; i++) feed.emit("log.appended", { data: { preview: big } });
    s = await startApp({ events: feed, sse: { queueBytes: 64 * 1024, stallMs: 100 } });
    const client = await open("/api/events?after=0");
    (await client.response()).pause();
    expect(feed.bus.size).toBe(1);
    await eventually(() => feed.bus.size === 0, "the bus subscription released", 5000);
  });

  it("delivers a burst of thousands of live events in one tick to a reader that keeps up", async () => {
    const feed = new ArrayFeed();
    s = await startApp({ events: feed });
    const client = await open("/api/events");
    const burst = 6000; // about 2 MB of frames published before the socket can drain once
    for (let i = 0; i < burst; i++) feed.emit("task.enqueued", { data: { node: "n".repeat(200) } });
    await until(client, (f) => f.length >= burst);
    expect(client.frames().some((f) => f.event === "resync")).toBe(false);
    expect(Number(client.frames().at(-1)?.id)).toBe(burst);
  });

  it("drops a slow reader's backlog and sends resync, without buffering without bound", async () => {
    const feed = new ArrayFeed();
    s = await startApp({ events: feed, sse: { queueBytes: 64 * 1024 } });
    const client = await open("/api/events");
    (await client.response()).pause();
    const big = "x".repeat(32 * 1024);
    const published = 1000; // 32 MB: far more than socket buffers and the 64 KB queue hold.
    for (let i = 0; i < published; i++) {
      feed.emit("log.appended", { data: { preview: big } });
      if (i % 50 === 0) await new Promise((r) => setImmediate(r));
    }
    (await client.response()).resume();
    await until(client, (f) => f.some((x) => x.event === "resync"));
    feed.emit("run.completed");
    await until(client, (f) => f.at(-1)?.event === "run.completed");
    const frames = client.frames();
    expect(frames.filter((f) => f.event === "log.appended").length).toBeLessThan(published);
    const resyncAt = frames.findIndex((f) => f.event === "resync");
    const before = frames.slice(0, resyncAt).map((f) => Number(f.id));
    expect(before).toEqual([...before].sort((a, b) => a - b));
  });
});

describe("connection lifecycle", () => {
  it("sends heartbeat comments", async () => {
    s = await startApp({ sse: { heartbeatMs: 20 } });
    const client = await open("/api/events");
    await eventually(() => client.text.includes(": ping\n\n"), "a heartbeat comment", 5000);
  });

  it("releases the bus subscription when the last client disconnects", async () => {
    const feed = new ArrayFeed();
    s = await startApp({ events: feed });
    const a = await open("/api/events");
    const b = await open("/api/events?after=0&names=run.*");
    // Every stream takes its events from one fan-out, the bus's single listener for them all.
    expect(feed.bus.size).toBe(1);
    a.close();
    b.close();
    await eventually(() => feed.bus.size === 0, "the bus subscription released", 5000);
  });

  it("lets the server close while streams are open", async () => {
    const feed = new ArrayFeed();
    s = await startApp({ events: feed });
    await open("/api/events");
    await s.app.close();
    expect(feed.bus.size).toBe(0);
  });
});
