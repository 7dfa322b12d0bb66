// Black-box conformance of a server's life: a network bind wants a token whatever the peer,
// the event-stream token is not logged, the replay cap sends `resync`, SIGTERM emits
// `engine.stopping`, and a restart on the same store emits `engine.recovered` and runs on.
import { rmSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkEnvelope } from "../support/api-shapes.ts";
import { rotateToken, type Served, serve, serverDir, stop } from "../support/serve.ts";
import { openStream } from "../support/sse.ts";
import { release, writeFlows } from "../support/suite-flows.ts";
import { testStoreUrl } from "../support/test-store.ts";
import { eventually } from "../support/wait.ts";

let srv: Served;
let token: string;
let toml: string;
const dir = serverDir("bb-");
const store = testStoreUrl(dir, "s.db");
beforeAll(async () => {
  toml = writeFlows(dir, "sse_replay_cap = 10").replace('host = "127.0.0.1"', 'host = "0.0.0.0"');
  srv = await serve({ dir, toml, store });
  token = await rotateToken(srv.config!);
}, 40_000);
afterAll(async () => {
  await stop(srv);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);

const auth = () => ({ authorization: `Bearer ${token}` });

describe("a server bound to a network interface", () => {
  it("wants the operator token even from a loopback peer, and never logs access_token", async () => {
    await eventually(
      async () => (await srv.call("GET", "/api/runs", undefined, auth())).status === 200,
      "token accepted",
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
    await eventually(async () => {
      const runs = (await srv.call("GET", "/api/runs?status=completed", undefined, auth())).body;
      return runs.length === 2;
    }, "runs done");
    const stream = await openStream(`${srv.url}/api/events?after=0`, auth());
    try {
      const frame = await eventually(
        () => stream.frames().find((f) => f.event === "resync"),
        "resync",
      );
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
    await stop(srv);
    const stopping = await stream.waitFor("engine.stopping", (e) => e.name === "engine.stopping");
    stream.close();
    checkEnvelope(stopping, true);
    expect(stopping.data.task_ids).toContain(started.task_id);
    srv = await serve({ dir, toml, store });
    await eventually(
      async () => (await srv.call("GET", "/api/runs", undefined, auth())).status === 200,
      "token accepted",
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
    await eventually(async () => {
      const run = (await srv.call("GET", `/api/runs/${id}`, undefined, auth())).body;
      return run.status === "completed";
    }, "recovered run completes");
  });
});
