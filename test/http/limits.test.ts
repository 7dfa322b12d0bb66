// The limits a real `yardmaster serve` puts on its clients: a request trickled a byte at a time
// is cut off by the header and request timeouts, event streams and connections are capped, and
// a client that sends an over-limit body the way HTTP libraries do (Content-Length, then 64 KiB
// writes) reads the 413 instead of a connection reset. Long answers are not cut: an event
// stream outlives the request timeout. Waits are bounded, never measured.
import type { ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { post } from "../support/http-client.ts";
import { killAll, type Served, serve as serveIn } from "../support/serve.ts";
import { FLOW_ROW, flowFolder } from "../support/serve-folders.ts";
import { eventually } from "../support/wait.ts";

let dir: string;
const children: ChildProcess[] = [];
const sockets: net.Socket[] = [];
const streams: AbortController[] = [];
afterEach(() => {
  for (const stream of streams.splice(0)) stream.abort();
  for (const socket of sockets.splice(0)) socket.destroy();
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

/** `yardmaster serve` with `serverKeys` in its [server] table and one workflow, `flow`. */
async function serve(serverKeys: string): Promise<Served> {
  dir = flowFolder("ym-limits-", serverKeys, FLOW_ROW);
  return serveIn({ dir, children });
}

/** A raw connection, for clients no HTTP library would be. */
async function connect(url: string): Promise<net.Socket> {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  sockets.push(socket);
  socket.on("error", () => {});
  await new Promise((done) => socket.once("connect", done));
  return socket;
}

/** Whether the server closes `socket` within `ms` (a generous bound, not a measurement). */
function closedWithin(socket: net.Socket, ms: number): Promise<boolean> {
  return new Promise((done) => {
    if (socket.destroyed) return done(true);
    const timer = setTimeout(() => done(false), ms);
    socket.once("close", () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** Everything the server writes on `socket`, as text, read as it arrives. */
function received(socket: net.Socket): () => string {
  let text = "";
  socket.on("data", (chunk: Buffer) => {
    text += chunk.toString("utf8");
  });
  return () => text;
}

/** The status and JSON body of the one raw answer in `text`. */
function rawAnswer(text: string): { status: number; body: Record<string, unknown> } {
  const [head = "", body = ""] = text.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), body: JSON.parse(body) };
}

/** The 408 the server writes before closing a connection whose request came too slowly. */
function expectTimeoutAnswer(text: string): void {
  const { status, body } = rawAnswer(text);
  expect(status).toBe(408);
  expect(body).toMatchObject({ code: "validation", errors: [{ type: "request_timeout" }] });
}

/** Writes one more byte of `text` every 250 ms for as long as the socket is open. */
function trickle(socket: net.Socket, text: string): void {
  const timer = setInterval(() => {
    if (socket.destroyed) clearInterval(timer);
    else socket.write(text);
  }, 250);
  socket.once("close", () => clearInterval(timer));
}

const HEAD = "Host: 127.0.0.1\r\n";

describe("header and request timeouts", () => {
  it("close a connection whose body arrives a byte at a time", { timeout: 40_000 }, async () => {
    const served = await serve("header_timeout = 1\nrequest_timeout = 2");
    const socket = await connect(served.url);
    socket.write(
      `POST /api/workflows HTTP/1.1\r\n${HEAD}Content-Type: application/json\r\n` +
        "Content-Length: 100000\r\n\r\n{",
    );
    const answer = received(socket);
    trickle(socket, " ");
    expect(await closedWithin(socket, 20_000)).toBe(true);
    expectTimeoutAnswer(answer());
  });

  it("close a connection whose headers arrive a line at a time", { timeout: 40_000 }, async () => {
    const served = await serve("header_timeout = 1\nrequest_timeout = 2");
    const socket = await connect(served.url);
    socket.write(`GET /api/health HTTP/1.1\r\n${HEAD}`);
    const answer = received(socket);
    trickle(socket, "X-Slow: 1\r\n");
    expect(await closedWithin(socket, 20_000)).toBe(true);
    expectTimeoutAnswer(answer());
  });

  it("leave an event stream open past them", { timeout: 40_000 }, async () => {
    const served = await serve("header_timeout = 1\nrequest_timeout = 1\nkeep_alive_timeout = 1");
    const stream = new AbortController();
    streams.push(stream);
    const res = await fetch(`${served.url}/api/events?names=run.created`, {
      signal: stream.signal,
    });
    expect(res.status).toBe(200);
    // Longer than the timeouts and the interval Node checks them at.
    await new Promise((resume) => setTimeout(resume, 3000));
    const submitted = await fetch(`${served.url}/api/workflows/flow/runs`, post({ title: "t" }));
    expect(submitted.status).toBe(201);
    const reader = res.body!.getReader();
    let text = "";
    while (!text.includes("event: run.created")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text).toContain("event: run.created");
  });
});

describe("caps", () => {
  it("refuse an event stream past max_event_streams with 429, until one closes", {
    timeout: 40_000,
  }, async () => {
    const served = await serve("max_event_streams = 2");
    const open = async () => {
      const stream = new AbortController();
      streams.push(stream);
      const res = await fetch(`${served.url}/api/events`, { signal: stream.signal });
      return { res, stream };
    };
    const first = await open();
    const second = await open();
    expect([first.res.status, second.res.status]).toEqual([200, 200]);
    const third = await open();
    expect(third.res.status).toBe(429);
    expect(await third.res.json()).toEqual({ error: expect.any(String), code: "conflict" });
    first.stream.abort();
    await eventually(async () => {
      const again = await open();
      if (again.res.status !== 200) await again.res.text();
      return again.res.status === 200;
    }, "a stream slot to be given back");
  });

  it("close a connection past max_connections at once, until one closes", {
    timeout: 40_000,
  }, async () => {
    const served = await serve("max_connections = 3\nkeep_alive_timeout = 60");
    const answered = async (socket: net.Socket) => {
      if (socket.destroyed) return "";
      const reply = new Promise<string>((done) => {
        let text = "";
        socket.on("data", (chunk) => {
          text += chunk;
        });
        socket.once("close", () => done(text));
        socket.once("data", () => setImmediate(() => done(text)));
      });
      socket.write(`GET /api/health HTTP/1.1\r\n${HEAD}\r\n`);
      return reply;
    };
    const kept = [];
    for (let i = 0; i < 3; i++) {
      const socket = await connect(served.url);
      expect(await answered(socket)).toMatch(/^HTTP\/1\.1 200/);
      kept.push(socket);
    }
    const extra = await connect(served.url);
    const refused = answered(extra);
    expect(await closedWithin(extra, 20_000)).toBe(true);
    expect(await refused).toBe("");
    kept[0]!.destroy();
    await eventually(async () => {
      const socket = await connect(served.url);
      return /^HTTP\/1\.1 200/.test(await answered(socket));
    }, "a connection to be accepted again");
  });
});

/** One POST of `size` bytes written in 64 KiB pieces, as HTTP client libraries write. */
function postInPieces(url: string, size: number, chunked: boolean) {
  const { hostname, port } = new URL(url);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (!chunked) headers["content-length"] = String(size);
  return new Promise<{ status: number; body: any }>((done, fail) => {
    const req = http.request({
      host: hostname,
      port,
      path: "/api/workflows",
      method: "POST",
      headers,
    });
    req.on("response", (res) => {
      let text = "";
      res.on("data", (chunk) => {
        text += chunk;
      });
      res.on("end", () => done({ status: res.statusCode!, body: JSON.parse(text) }));
      res.on("error", fail);
    });
    req.on("error", fail);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", write);
      }
      req.end();
    };
    write();
  });
}

describe("an over-limit body", () => {
  it("gets a 413 the client can read, every time", { timeout: 60_000 }, async () => {
    const served = await serve("body_limit = 1048576");
    for (const chunked of [false, false, false, false, false, false, true, true]) {
      const answer = await postInPieces(served.url, 2 * 1024 * 1024, chunked);
      expect(answer, chunked ? "chunked" : "with Content-Length").toEqual({
        status: 413,
        body: { error: expect.any(String), code: "payload_too_large" },
      });
    }
  });
});
