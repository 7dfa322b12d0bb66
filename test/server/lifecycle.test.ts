// Black-box conformance of a server's life: a network bind wants a token whatever the peer,
// the event-stream token is not logged, the replay cap sends `resync`, SIGTERM emits
// `engine.stopping`, and a restart on the same store emits `engine.recovered` and runs on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { release, writeFlows } from "../support/blackbox-flows.ts";
import {
  type BlackboxServer,
  makeDir,
  rotateToken,
  startServer,
  waitFor,
} from "../support/blackbox-server.ts";
import { checkEnvelope } from "../support/blackbox-shapes.ts";
import { openStream } from "../support/blackbox-sse.ts";

let srv: BlackboxServer;
let token: string;
let toml: string;
const dir = makeDir();
beforeAll(async () => {
  toml = writeFlows(dir, "sse_replay_cap = 10").replace('host = "127.0.0.1"', 'host = "0.0.0.0"');
  srv = await startServer(dir, toml);
  token = await rotateToken(srv.config);
}, 40_000);
afterAll(async () => {
  await srv?.stop();
}, 30_000);

const auth = () => ({ authorization: `Bearer ${token}` });

describe("a server bound to a network interface", () => {
  it("wants the operator token even from a loopback peer, and never logs access_token", async () => {
    await waitFor(
      "token accepted",
      async () => (await srv.call("GET", "/api/runs", undefined, auth())).status === 200,
    );
    expect((await srv.call("GET", "/api/runs")).status).toBe(401);
    expect((await srv.call("GET", "/api/me")).body).toMatchObject({
      auth: "token",
      authenticated: false,
    });
    const stream = await openStream(
      `${srv.url}/api/events?access_token=${encodeURIComponent(token)}`,
    );
    stream.close();
    expect(stream.status).toBe(200);
    expect(srv.output()).not.toContain(token);
  });

  it("answers a replay beyond the cap with a resync frame that has no id and no envelope", async () => {
    for (const title of ["a", "b"]) {
      await srv.call("POST", "/api/workflows/chain/runs", { title }, auth());
    }
    await waitFor("runs done", async () => {
      const runs = (await srv.call("GET", "/api/runs?status=completed", undefined, auth())).body;
      return runs.length === 2;
    });
    const stream = await openStream(`${srv.url}/api/events?after=0`, auth());
    try {
      const frame = await waitFor("resync", () => stream.frames.find((f) => f.event === "resync"));
      expect(frame.id).toBeUndefined();
      expect(frame.data === undefined || !JSON.parse(frame.data).name).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("emits engine.stopping on SIGTERM and engine.recovered when restarted on the same store", async () => {
    const stream = await openStream(`${srv.url}/api/events?names=engine.*,task.started`, auth());
    const made = await srv.call("POST", "/api/workflows/hold/runs", { title: "kept" }, auth());
    const id = made.body.run_id;
    const started = await stream.waitFor(
      "grip started",
      (e) => e.run_id === id && e.name === "task.started",
    );
    await srv.stop(true);
    const stopping = await stream.waitFor("engine.stopping", (e) => e.name === "engine.stopping");
    stream.close();
    checkEnvelope(stopping, true);
    expect(stopping.data.task_ids).toContain(started.task_id);
    srv = await startServer(dir, toml);
    await waitFor(
      "token accepted",
      async () => (await srv.call("GET", "/api/runs", undefined, auth())).status === 200,
    );
    const replay = await openStream(
      `${srv.url}/api/events?after=${stopping.id}&names=engine.*`,
      auth(),
    );
    try {
      const recovered = await replay.waitFor(
        "engine.recovered",
        (e) => e.name === "engine.recovered",
      );
      checkEnvelope(recovered, true);
      expect(recovered.data.task_ids).toContain(started.task_id);
    } finally {
      replay.close();
    }
    release(dir, id);
    await waitFor("recovered run completes", async () => {
      const run = (await srv.call("GET", `/api/runs/${id}`, undefined, auth())).body;
      return run.status === "completed";
    });
  });
});
