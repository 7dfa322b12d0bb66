// Sending a fuzzed request, with a bounded wait, and printing it for a report. fetch sends what a
// well-behaved client can; a request with bytes fetch refuses to put on the wire (control
// characters in a header, a raw space or non-ASCII byte in the path) goes over a plain socket,
// since a hostile client is not bound by fetch's checks either.
import { connect } from "node:net";
import type { Credentials, FuzzRequest } from "./fuzz-requests.ts";

export type Reply =
  | { kind: "answered"; status: number; headers: Headers; text: string }
  | { kind: "streaming"; status: number; headers: Headers }
  | { kind: "unanswered"; ms: number }
  | { kind: "failed"; error: string };

const isEventStream = (headers: Headers) =>
  (headers.get("content-type") ?? "").startsWith("text/event-stream");

const needsSocket = (req: FuzzRequest) =>
  /[^\x21-\x7E]/.test(req.target) ||
  Object.values(req.headers).some((v) => /[^\t\x20-\x7E\x80-\xFF]/.test(v));

/**
 * Sends `req`, waiting at most `boundMs` for the answer. An event stream is not read past its
 * headers (it never ends); a request still unanswered at the bound is reported as such.
 */
export function send(base: string, req: FuzzRequest, boundMs: number): Promise<Reply> {
  return needsSocket(req) ? sendOverSocket(base, req, boundMs) : sendWithFetch(base, req, boundMs);
}

async function sendWithFetch(base: string, req: FuzzRequest, boundMs: number): Promise<Reply> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), boundMs);
  try {
    const res = await fetch(base + req.target, {
      method: req.method,
      headers: req.headers,
      body: req.body === undefined ? undefined : Buffer.from(req.body, "utf8"),
      signal: abort.signal,
    });
    if (isEventStream(res.headers)) {
      abort.abort();
      return { kind: "streaming", status: res.status, headers: res.headers };
    }
    return { kind: "answered", status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    if (abort.signal.aborted) return { kind: "unanswered", ms: boundMs };
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? "";
    return { kind: "failed", error: `${(err as Error).message}: ${detail}` };
  } finally {
    clearTimeout(timer);
  }
}

/** Status line and headers of a raw HTTP/1.1 answer, once they have all arrived. */
function parseHead(bytes: Buffer): { status: number; headers: Headers; end: number } | undefined {
  const end = bytes.indexOf("\r\n\r\n");
  if (end === -1) return undefined;
  const [statusLine, ...lines] = bytes.subarray(0, end).toString("latin1").split("\r\n");
  const headers = new Headers();
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
  }
  return { status: Number(statusLine.split(" ")[1]), headers, end: end + 4 };
}

function unchunk(body: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf("\r\n", at);
    const size = Number.parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
    if (lineEnd === -1 || !(size > 0)) return Buffer.concat(parts);
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

function sendOverSocket(base: string, req: FuzzRequest, boundMs: number): Promise<Reply> {
  const { hostname, port } = new URL(base);
  const body = Buffer.from(req.body ?? "", "utf8");
  const head = [
    `${req.method} ${req.target} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    ...Object.entries(req.headers).map(([name, value]) => `${name}: ${value}`),
    ...(req.body === undefined ? [] : [`content-length: ${body.length}`]),
    "connection: close",
    "\r\n",
  ].join("\r\n");
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname);
    const done = (reply: Reply) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(reply);
    };
    const timer = setTimeout(() => done({ kind: "unanswered", ms: boundMs }), boundMs);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      const parsed = parseHead(Buffer.concat(chunks));
      if (parsed && isEventStream(parsed.headers))
        done({ kind: "streaming", status: parsed.status, headers: parsed.headers });
    });
    socket.on("error", (err) => {
      if (!chunks.length) done({ kind: "failed", error: err.message });
    });
    socket.on("close", () => {
      const all = Buffer.concat(chunks);
      const parsed = parseHead(all);
      if (!parsed) return done({ kind: "failed", error: "connection closed without an answer" });
      const rest = all.subarray(parsed.end);
      const text = (
        parsed.headers.get("transfer-encoding") === "chunked" ? unchunk(rest) : rest
      ).toString("utf8");
      done({ kind: "answered", status: parsed.status, headers: parsed.headers, text });
    });
    socket.write(Buffer.concat([Buffer.from(head, "latin1"), body]));
  });
}

// Characters a terminal shows as nothing, or not at all: a report spells them as escapes.
const INVISIBLE = /[\x7F-\x9F\u00AD\u200B-\u200F\u2028-\u202E\u2060-\u2064\uFEFF\uD800-\uDFFF]/g;

const escaped = (text: string) =>
  JSON.stringify(text)
    .slice(1, -1)
    .replace(INVISIBLE, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);

/** Cuts long text, saying how long it was, so a report stays readable. */
export function excerpt(text: string, max = 300): string {
  if (text.length <= max) return escaped(text);
  return `${escaped(text.slice(0, max))}... (${text.length} chars)`;
}

/** The request as a report shows it: tokens masked, long parts cut. */
export function describeRequest(req: FuzzRequest, creds: Credentials): string {
  const mask = (value: string) =>
    creds.stale.reduce(
      (text, token) => text.replaceAll(token, "<ended task token>"),
      value.replaceAll(creds.operator, "<operator token>").replaceAll(creds.task, "<task token>"),
    );
  const headers = Object.entries(req.headers).map(([k, v]) => `  ${k}: ${excerpt(mask(v), 120)}`);
  const body = req.body === undefined ? "(no body)" : `body: ${excerpt(req.body)}`;
  return [`${req.method} ${excerpt(mask(req.target), 400)}`, ...headers, `  ${body}`].join("\n");
}
