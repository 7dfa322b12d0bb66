// A refusal sent while the request body is still arriving (413 on a declared Content-Length, or
// part way through a chunked body) must reach the client. The connection cannot be reused (the
// rest of the body is still coming), so it is closed, but closing a socket with unread bytes in
// it makes the kernel answer them with a reset, which discards the refusal before the client
// reads it: most HTTP clients finish writing before they read. So the close lingers, as nginx's
// does: our side of the connection ends after the answer, the rest of the body is read and
// thrown away, and the socket closes when the body has ended, or when a bound is reached.
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";

/** Longest time spent discarding the rest of a refused body. */
export const LINGER_MS = 10_000;
/** Most bytes discarded after a refusal: this, or the body limit when that is larger. */
export const LINGER_BYTES = 8 << 20;

export function lingerAfterRefusal(request: FastifyRequest, reply: FastifyReply): void {
  const req = request.raw;
  const socket: Socket = req.socket;
  if (req.complete || req.destroyed || socket.destroyed) return;
  let left = Math.max(LINGER_BYTES, request.routeOptions.bodyLimit ?? 0);
  reply.header("connection", "close");
  // Node ends a `Connection: close` answer with destroySoon(), a full close once written;
  // end only our side instead, and keep reading.
  const closeWhenWritten = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    socket.end();
  };
  const stop = () => {
    clearTimeout(timer);
    req.off("data", discard);
  };
  const cut = () => {
    stop();
    socket.destroy();
  };
  const discard = (chunk: Buffer) => {
    left -= chunk.length;
    if (left < 0) cut();
  };
  const timer = setTimeout(cut, LINGER_MS);
  timer.unref();
  req.on("data", discard);
  // Nothing unread is left: the close cannot reset the answer any more.
  req.once("end", () => {
    stop();
    closeWhenWritten();
  });
  socket.once("close", stop);
}
