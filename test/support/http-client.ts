// The suite's fetch client for a server under test, in the two shapes the tests read best:
// `request` (method, path, JSON body) answers the status, the parsed body and the raw text;
// `call` takes a fetch init (`post` builds one) for tests that shape the request themselves.

export interface Reply {
  status: number;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: any;
  text: string;
  headers: Headers;
}

export async function request(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const res = await fetch(base + path, init);
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** `fetch(url + path, init)`, answering the status and the JSON body (null when none). */
export async function call(
  url: string,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(url + path, init);
  return { status: res.status, body: await res.json().catch(() => null) };
}

export const post = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});
