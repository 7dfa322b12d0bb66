// Hostile input against a real `yardmaster serve` process, in its own process so that a stalled
// event loop shows as a health check that gets no answer (never as a timed assertion): a names
// glob built to backtrack, bodies nested past the depth limit, text past its size limits and
// refusals that used to leave the error shape. The agent surface has its own file
// (mcp/hostile-input.test.ts).
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  MAX_EVENT_NAMES_LENGTH,
  MAX_JSON_DEPTH,
  MAX_LINE_LENGTH,
  MAX_NAME_LENGTH,
  MAX_TEXT_LENGTH,
} from "../../src/service/limits.ts";
import { call, post } from "../support/http-client.ts";
import { killAll, type Served, serve } from "../support/serve.ts";
import { answersHealth } from "../support/serve-folders.ts";
import { defaultToml } from "../support/server-harness.ts";
import { SseClient } from "../support/sse.ts";
import { eventually } from "../support/wait.ts";

const children: ChildProcess[] = [];
let dir: string;
let served: Served;
let url: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "ym-input-limits-"));
  // The fixture workflows live in the repository, outside the temp folder's default roots.
  const roots = `port = 0\nworkflow_roots = [${JSON.stringify(resolve("."))}]`;
  writeFileSync(join(dir, "yardmaster.toml"), defaultToml().replace("port = 0", roots));
  served = await serve({ dir, children });
  url = served.url;
}, 60_000);

afterAll(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

async function finishedRun(title: string): Promise<string> {
  const { run_id } = (await call(url, "/api/workflows/chain/runs", post({ title }))).body;
  await eventually(
    async () => (await call(url, `/api/runs/${run_id}`)).body.status === "completed",
    "the run to complete",
  );
  return run_id;
}

/** `levels` arrays nested in one another. */
const nested = (levels: number) => `${"[".repeat(levels)}${"]".repeat(levels)}`;

describe("event stream names", () => {
  it("a glob built to backtrack neither stalls the server nor stops the events asked for", {
    timeout: 60_000,
  }, async () => {
    await finishedRun("stored before the stream opens");
    // `*.` then sixty stars and a `!`: as a regular expression, sixty [^.]* in a row.
    const names = `*.${"*".repeat(60)}!,run.completed`;
    const stream = new SseClient(`${url}/api/events?after=0&names=${encodeURIComponent(names)}`);
    try {
      expect((await stream.response()).statusCode).toBe(200);
      expect(await answersHealth(url)).toBe(true);
      const runId = await finishedRun("published while the stream is open");
      await eventually(
        async () =>
          stream.frames().some((f) => f.event === "run.completed" && f.data?.includes(runId)),
        "the live run.completed",
      );
      expect(stream.frames().every((f) => f.event === "run.completed")).toBe(true);
    } finally {
      stream.close();
    }
  });

  it("refuses a names filter over its size limit with 422 naming the query", async () => {
    const names = "run.*,".repeat(Math.ceil(MAX_EVENT_NAMES_LENGTH / 6) + 1);
    const r = await call(url, `/api/events?names=${encodeURIComponent(names)}`);
    expect(r.status).toBe(422);
    expect(r.body.code).toBe("validation");
    expect(r.body.errors[0]).toMatchObject({ loc: ["query", "names"], type: "string_too_long" });
  });
});

describe("JSON nesting", () => {
  it("refuses a body nested past the limit with 422, and takes one at the limit", {
    timeout: 30_000,
  }, async () => {
    const { run_id } = (await call(url, "/api/workflows/forms/runs", post({ title: "deep" }))).body;
    const asked = await eventually(
      async () => (await call(url, `/api/requests?pending=true&run=${run_id}`)).body[0],
      "the text request",
    );
    const answer = `/api/requests/${asked.id}/answer`;
    const headers = { "content-type": "application/json" };
    const deep = await call(url, answer, {
      method: "POST",
      headers,
      body: `{"value":${nested(10_000)}}`,
    });
    expect(deep.status).toBe(422);
    expect(deep.body).toMatchObject({ code: "validation" });
    expect(deep.body.errors[0]).toMatchObject({ loc: ["body"], type: "json_too_deep" });
    const atLimit = await call(url, answer, {
      method: "POST",
      headers,
      body: `{"value":${nested(MAX_JSON_DEPTH - 1)}}`,
    });
    expect(atLimit.status).toBe(200);
  });
});

describe("text sizes", () => {
  it("refuses a title, a description and a text answer over their limits", async () => {
    const runs = "/api/workflows/chain/runs";
    const long = await call(url, runs, post({ title: "x".repeat(900_000) }));
    expect(long.status).toBe(422);
    expect(long.body.errors[0]).toMatchObject({ loc: ["body", "title"], type: "string_too_long" });
    expect(JSON.stringify(long.body).length).toBeLessThan(1_000);
    const line = await call(url, runs, post({ title: "x".repeat(MAX_LINE_LENGTH) }));
    expect(line.status).toBe(201);
    const described = await call(
      url,
      runs,
      post({ title: "t", description: "d".repeat(MAX_TEXT_LENGTH + 1) }),
    );
    expect(described.status).toBe(422);
    expect(described.body.errors[0].loc).toEqual(["body", "description"]);
    const answer = await call(url, "/api/requests/1/answer", post({ value: "v".repeat(70_000) }));
    expect(answer.status).toBe(422);
    expect(answer.body.errors[0]).toMatchObject({ loc: ["body", "value"] });
  });

  it("repeats only an excerpt of the input in a refusal", async () => {
    const path = `/api/nothing/${"p".repeat(10_000)}`;
    const missing = await call(url, path);
    expect(missing.status).toBe(404);
    expect(missing.body.error.length).toBeLessThan(400);
    const typed = await call(url, "/api/workflows/chain/runs", {
      method: "POST",
      headers: { "content-type": `text/${"t".repeat(10_000)}` },
      body: "x",
    });
    expect(typed.status).toBe(422);
    expect(typed.body.errors[0].msg.length).toBeLessThan(400);
  });
});

/** Sends `raw` on a fresh connection and answers what came back, up to the server's close. */
function rawExchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      text += chunk;
    });
    socket.on("error", () => resolve(text));
    socket.on("close", () => resolve(text));
    socket.setTimeout(15_000, () => reject(new Error("no answer")));
    socket.write(raw);
  });
}

const bodyOf = (response: string) => JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4));

describe("refusals keep the error shape", () => {
  it("answers a request head over the limit with 431 payload_too_large", async () => {
    const res = await fetch(`${url}/api/runs`, { headers: { "x-big": "a".repeat(20_000) } });
    expect(res.status).toBe(431);
    expect(await res.json()).toMatchObject({
      code: "payload_too_large",
      error: expect.any(String),
    });
  });

  it("answers an unreadable Content-Length with 400 validation naming the header", async () => {
    const response = await rawExchange(
      "POST /api/workflows/chain/runs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: abc\r\n\r\n{}",
    );
    expect(response.startsWith("HTTP/1.1 400 ")).toBe(true);
    const body = bodyOf(response);
    expect(body).toMatchObject({ code: "validation", error: expect.any(String) });
    expect(body.errors[0].loc).toEqual(["header", "content-length"]);
  });

  it("answers an overlong path parameter with 422 naming it, whatever the route", async () => {
    const id = "r".repeat(MAX_NAME_LENGTH + 1);
    for (const [method, path] of [
      ["GET", `/api/runs/${id}`],
      ["POST", `/api/runs/${id}/cancel`],
      ["GET", `/api/workflows/${id}`],
    ]) {
      const r = await call(url, path, { method });
      expect(r.status, `${method} ${path}`).toBe(422);
      expect(r.body.errors[0].loc[0]).toBe("path");
    }
  });

  it("refuses a registration target holding a lone surrogate with 422, not persist_failed", async () => {
    const r = await call(url, "/api/workflows", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"target":"\\ud800.ts:flow","persist":true}',
    });
    expect(r.status).toBe(422);
    expect(r.body.errors[0].loc).toEqual(["body", "target"]);
  });
});
