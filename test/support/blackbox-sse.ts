// A minimal server-sent events reader over fetch that keeps the raw frames, so the suite can
// check the framing (`id:`, `event:`, `data:`) and not only the parsed envelopes.
import { waitFor } from "./blackbox-server.ts";

export interface Frame {
  id?: string;
  event?: string;
  data?: string;
  raw: string;
}

export interface Envelope {
  id?: number | null;
  name: string;
  created: string;
  data: Record<string, any>;
  run_id?: string | null;
  task_id?: number | null;
}

export interface Stream {
  status: number;
  contentType: string | null;
  frames: Frame[];
  /** Envelopes of the frames that carried `data:` JSON with a `name`. */
  events(): Envelope[];
  waitFor(what: string, test: (e: Envelope) => boolean, ms?: number): Promise<Envelope>;
  close(): void;
}

export async function openStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<Stream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const frames: Frame[] = [];
  const stream: Stream = {
    status: res.status,
    contentType: res.headers.get("content-type"),
    frames,
    events: () => frames.flatMap((f) => envelopeOf(f)),
    waitFor: (what, test, ms) => waitFor(what, () => stream.events().find(test), ms),
    close: () => abort.abort(),
  };
  if (res.ok && res.body) void pump(res.body, frames);
  else await res.text().catch(() => undefined);
  return stream;
}

async function pump(body: ReadableStream<Uint8Array>, frames: Frame[]): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true }).replace(/\r\n/g, "\n");
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const raw = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const frame = parseFrame(raw);
        if (frame) frames.push(frame);
        end = buffer.indexOf("\n\n");
      }
    }
  } catch {
    // closed by the test
  }
}

function parseFrame(raw: string): Frame | undefined {
  const frame: Frame = { raw };
  let seen = false;
  for (const line of raw.split("\n")) {
    if (line.startsWith(":") || !line) continue;
    const at = line.indexOf(":");
    const field = at < 0 ? line : line.slice(0, at);
    const value = at < 0 ? "" : line.slice(at + 1).replace(/^ /, "");
    if (field === "id" || field === "event") frame[field] = value;
    if (field === "data") frame.data = frame.data === undefined ? value : `${frame.data}\n${value}`;
    seen = true;
  }
  return seen ? frame : undefined;
}

function envelopeOf(frame: Frame): Envelope[] {
  if (frame.data === undefined) return [];
  try {
    const parsed = JSON.parse(frame.data);
    return parsed && typeof parsed.name === "string" ? [parsed] : [];
  } catch {
    return [];
  }
}
