// Stopping the server is bounded: a client that holds a connection open mid-request (it sent
// half of its headers and went quiet) must not keep the server from stopping.
import { once } from "node:events";
import { connect } from "node:net";
import { expect, it } from "vitest";
import { startTestServer } from "../support/server-harness.ts";

it("stops even while a client holds a half-sent request open", async () => {
  const s = await startTestServer();
  const { port } = new URL(s.url);
  const socket = connect(Number(port), "127.0.0.1");
  await once(socket, "connect");
  socket.write("GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n");
  const closed = once(socket, "close");
  const started = Date.now();
  await s.close();
  await closed;
  // Node would otherwise wait for its headers timeout (60 s), past the test's own timeout.
  expect(Date.now() - started).toBeLessThan(15_000);
});
