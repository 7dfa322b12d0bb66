// The event stream over a real server and engine: live delivery, replay after a cursor without
// gap or duplicate, run and name filters.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server-harness.ts";
import { eventually } from "../support/wait.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

interface Frame {
  id?: string;
  event?: string;
  data?: string;
}

/** Opens the stream and collects parsed frames until aborted. */
function listen(query: string, headers: Record<string, string> = {}) {
  const frames: Frame[] = [];
  const abort = new AbortController();
  const done = (async () => {
    const res = await fetch(`${s.url}/api/events${query}`, { headers, signal: abort.signal });
    expect(res.headers.get("content-type")).toMatch(/text\/event-stream/);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let cut = buffer.indexOf("\n\n");
      while (cut >= 0) {
        const frame: Frame = {};
        for (const line of buffer.slice(0, cut).split("\n")) {
          const m = /^(id|event|data): ?(.*)$/.exec(line);
          if (m) frame[m[1] as keyof Frame] = m[2];
        }
        if (frame.event) frames.push(frame);
        buffer = buffer.slice(cut + 2);
        cut = buffer.indexOf("\n\n");
      }
    }
  })().catch(() => {});
  return { frames, stop: () => abort.abort(), done };
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
        l.frames.some((f) => f.event === "run.completed" && JSON.parse(f.data!).run_id === second),
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
    await eventually(async () => l.frames.some((f) => f.event === "run.completed"), "names filter");
    l.stop();
    other.stop();
    byRun.stop();
    expect(l.frames.every((f) => f.event!.startsWith("run."))).toBe(true);
    expect(byRun.frames.every((f) => JSON.parse(f.data!).run_id === runId)).toBe(true);
    expect(byRun.frames[0].event).toBe("run.created");
  });
});
