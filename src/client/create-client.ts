// A small typed client of the HTTP API over fetch: `client.get("/api/runs/{run_id}", { params:
// { run_id } })` answers a RunDetail, and a path, parameter or body the API does not document is
// a type error. Refusals throw ApiRefusal; fetch's own failures (no connection, the timeout, an
// abort) propagate as fetch raises them, for the caller to word. The event stream
// (GET /api/events) is not read through it: it never ends, and EventSource or a streaming
// request fits it (http.md, "Event stream").
import type { HttpMethod, OperationOf, OptionsArg, PathsOf, ResponseOf } from "./api-paths.ts";
import { ApiRefusal } from "./api-refusal.ts";

export interface ClientOptions {
  /** The server's address, with its path prefix if it has one: `http://127.0.0.1:8420`. */
  baseUrl: string;
  /** The operator token, sent as `Authorization: Bearer <token>`. */
  token?: string;
  /** Longest wait for one whole answer; none when absent. */
  timeoutMs?: number;
  /** The fetch to call (default: the global one). */
  fetch?: typeof fetch;
}

export interface ApiResponse<T> {
  status: number;
  body: T;
  headers: Headers;
}

export type QueryValue = string | number | boolean | null | undefined;

/** What the implementation reads of any call's options; the signatures type them per route. */
interface LooseOptions {
  params?: Record<string, string | number>;
  query?: Record<string, QueryValue | QueryValue[]>;
  body?: unknown;
  headers?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

type Answer<M extends HttpMethod, P extends PathsOf<M>> = ResponseOf<OperationOf<P, M>>;

export class YardmasterClient {
  /** The base address without a trailing slash. */
  readonly baseUrl: string;
  readonly token: string | undefined;
  readonly timeoutMs: number | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.token = options.token;
    this.timeoutMs = options.timeoutMs;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The absolute URL of an expanded path, with the defined query entries. */
  url(path: string, query: LooseOptions["query"] = {}): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query)) {
      if (Array.isArray(value)) {
        for (const item of value) if (item != null) url.searchParams.append(key, String(item));
      } else if (value != null) url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** `accept: application/json` and the bearer token, plus `extra`. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    return { ...headers, ...extra };
  }

  /** One call with its status and headers; a refusal (4xx, 5xx) throws ApiRefusal. */
  async request<M extends HttpMethod, P extends PathsOf<M>>(
    method: M,
    path: P,
    ...[options]: OptionsArg<OperationOf<P, M>>
  ): Promise<ApiResponse<Answer<M, P>>> {
    const { params, query, body, signal } = (options ?? {}) as LooseOptions;
    const extra: Record<string, string> = {};
    for (const [name, value] of Object.entries((options as LooseOptions)?.headers ?? {})) {
      if (value !== undefined) extra[name] = value;
    }
    if (body !== undefined) extra["content-type"] = "application/json";
    const init: RequestInit = {
      method,
      headers: this.headers(extra),
      signal: this.#signal(signal),
    };
    if (body !== undefined) init.body = JSON.stringify(body);
    const res = await this.#fetch(this.url(expand(path, params), query), init);
    const text = await res.text();
    if (!res.ok) throw new ApiRefusal(res.status, refusalBody(text));
    const json = /\bjson\b/.test(res.headers.get("content-type") ?? "");
    const parsed = text === "" ? undefined : json ? JSON.parse(text) : text;
    return { status: res.status, body: parsed as Answer<M, P>, headers: res.headers };
  }

  get<P extends PathsOf<"GET">>(path: P, ...options: OptionsArg<OperationOf<P, "GET">>) {
    return this.request("GET", path, ...options).then((r) => r.body);
  }

  post<P extends PathsOf<"POST">>(path: P, ...options: OptionsArg<OperationOf<P, "POST">>) {
    return this.request("POST", path, ...options).then((r) => r.body);
  }

  put<P extends PathsOf<"PUT">>(path: P, ...options: OptionsArg<OperationOf<P, "PUT">>) {
    return this.request("PUT", path, ...options).then((r) => r.body);
  }

  patch<P extends PathsOf<"PATCH">>(path: P, ...options: OptionsArg<OperationOf<P, "PATCH">>) {
    return this.request("PATCH", path, ...options).then((r) => r.body);
  }

  delete<P extends PathsOf<"DELETE">>(path: P, ...options: OptionsArg<OperationOf<P, "DELETE">>) {
    return this.request("DELETE", path, ...options).then((r) => r.body);
  }

  #signal(own: AbortSignal | undefined): AbortSignal | undefined {
    if (this.timeoutMs === undefined) return own;
    const timeout = AbortSignal.timeout(this.timeoutMs);
    return own ? AbortSignal.any([timeout, own]) : timeout;
  }
}

export function createClient(options: ClientOptions): YardmasterClient {
  return new YardmasterClient(options);
}

/** `/api/runs/{run_id}` with each parameter put in as one escaped segment. */
function expand(path: string, params: LooseOptions["params"] = {}): string {
  return path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} of ${path} is missing`);
    return encodeURIComponent(String(value));
  });
}

/** The refusal's JSON object; a body that is not one (a proxy's page) becomes its excerpt. */
function refusalBody(text: string): Record<string, unknown> {
  if (text === "") return {};
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === "object" && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  } catch {
    return { error: text.slice(0, 200) };
  }
}
