// Opens a long-lived GET for the event stream with node:http(s) rather than fetch: a stream is
// ended by destroying its socket, and fetch's abort was seen to leave the socket open while the
// server kept writing (holding up even the server's own stop in a shared process).
import http, { type ClientRequest, type IncomingMessage } from "node:http";
import https from "node:https";
import { ApiRefusal, Unreachable } from "./client-errors.ts";

export interface OpenStream {
  res: IncomingMessage;
  /** Ends the stream for good: the socket is destroyed, not kept for reuse. */
  close(): void;
}

/** Resolves once the response headers arrive with 200; refusals and failures reject. */
export function openStream(
  url: string,
  headers: Record<string, string>,
  limits: { openMs: number; where: string; signal: AbortSignal },
): Promise<OpenStream> {
  const { openMs, where, signal } = limits;
  const get = url.startsWith("https:") ? https.get : http.get;
  return new Promise((resolve, reject) => {
    // Without an agent the socket belongs to this request alone, so destroying it is final.
    const req: ClientRequest = get(url, { headers, agent: false, signal });
    const timer = setTimeout(() => {
      req.destroy(new Unreachable(`no answer from ${where} within ${openMs / 1000} s`));
    }, openMs);
    req.once("error", (error) => {
      clearTimeout(timer);
      reject(error instanceof Unreachable ? error : unreachable(where, error));
    });
    req.once("response", (res) => {
      clearTimeout(timer);
      if (res.statusCode === 200) {
        resolve({ res, close: () => req.destroy() });
        return;
      }
      readRefusal(res).then((body) => {
        req.destroy();
        reject(new ApiRefusal(res.statusCode ?? 0, body));
      }, reject);
    });
  });
}

function unreachable(where: string, error: Error): Unreachable {
  const why = (error as { code?: string }).code ?? error.message;
  return new Unreachable(`cannot reach ${where} (${why}); is \`yardmaster serve\` running?`);
}

async function readRefusal(res: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  res.setEncoding("utf8");
  for await (const chunk of res) text += chunk;
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {};
  } catch {
    return text ? { error: text.slice(0, 200) } : {};
  }
}
